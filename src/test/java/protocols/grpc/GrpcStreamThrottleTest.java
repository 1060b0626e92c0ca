package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.grpc.GrpcDsl.*;
import static protocols.grpc.GrpcStreamingTest.item;

import io.gatling.javaapi.core.ChainBuilder;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;
import streaming.pb.StreamsGrpc;

/** Gatling's throttle(...) counts every message a stream sends as one request, as it does HTTP requests. */
class GrpcStreamThrottleTest {

  private static StreamingServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = StreamingServer.start();
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
  }

  @Test
  void throttleSpacesTheMessagesAStreamSends() {
    var echo = grpc("echo").bidiStream(StreamsGrpc.getEchoMethod());
    List<Long> times = new CopyOnWriteArrayList<>();
    ChainBuilder now = exec(session -> {
      times.add(System.nanoTime() / 1_000_000);
      return session;
    });
    ChainBuilder chain =
        exec(echo.start(), now)
            .repeat(20, "i")
            .on(exec(echo.send(session -> item(session.getInt("i")))))
            .exec(now, exec(echo.halfClose(), echo.awaitStreamEnd()));
    ProbeSimulation.define(
        sim ->
            sim.setUp(scenario("throttled").exec(chain).injectOpen(atOnceUsers(1)))
                .protocols(grpc.target(server.target()))
                .throttle(jumpToRps(10), holdFor(Duration.ofSeconds(30))));

    GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

    assertEquals(20, run.ok("echo"), run.toString());
    long sending = times.get(1) - times.get(0);
    assertTrue(sending >= 1500, "20 messages at 10 per second take about 2 s, not " + sending + " ms");
  }
}
