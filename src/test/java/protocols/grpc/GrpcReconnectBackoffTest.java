package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.grpc.GrpcBenchmarkServer;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloGrpc;
import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.Doorman;
import protocols.testkit.GatlingRun;
import protocols.testkit.ServerComesBack;

/**
 * The core reconnect backoff in front of grpc-java's channels: a thousand users with a channel each,
 * against a target that drops every connection or refuses it, and a target that comes back.
 */
class GrpcReconnectBackoffTest {

  private static GrpcUnaryRequestBuilder<BenchmarkMessage, BenchmarkMessage> say() {
    return grpc("say").unary(HelloGrpc.getSayMethod()).payload(BenchmarkMessages.request());
  }

  private static GatlingRun aThousandUsersFor(Duration time, int port) {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("dead target")
                        .during(time)
                        .on(exec(say()).pause(Duration.ofMillis(50)))
                        .injectOpen(atOnceUsers(1000)))
                .protocols(grpc.target("127.0.0.1:" + port).channelPerUser()));
    return GatlingRun.run(ProbeSimulation.class, Map.of());
  }

  @Test
  void aThousandUsersMakeAtMostFiftyConnectionAttemptsASecondAgainstATargetThatDropsThem() throws Exception {
    try (Doorman doorman = new Doorman()) {
      // 4 s: the doorman accepts the first thousand one after the other, seconds on a loaded machine
      GatlingRun run = aThousandUsersFor(Duration.ofSeconds(4), doorman.port());

      // the users' first channels (1000), then at most 50 a second; grpc-java's own backoff alone
      // would have each channel knock again after 1 s, 2.6 s, 5.2 s...
      long attempts = doorman.accepted.size();
      assertTrue(attempts <= 1000 + 3 * 50, attempts + " connections; " + run);
      assertEquals(0, run.ok("say"), run.toString());
      assertTrue(run.errors("say").contains("reconnecting in "), run.errors("say"));
      assertTrue(run.errors("say").contains("after: UNAVAILABLE"), run.errors("say"));
    }
  }

  @Test
  void aThousandUsersMakeAtMostFiftyConnectionAttemptsASecondAgainstARefusingPort() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort(); // closed again: nothing listens there during the run
    }
    GatlingRun run = aThousandUsersFor(Duration.ofSeconds(3), port);

    // nothing to count on the far side: every attempt fails the one call that opened its channel with
    // "Connection refused", every call the backoff holds back says "reconnecting in"
    long attempts = 0;
    JsonNode errors = run.request("say").path("errors");
    for (var e = errors.fields(); e.hasNext(); ) {
      var error = e.next();
      if (!error.getKey().startsWith("reconnecting in ") && error.getKey().contains("Connection refused")) {
        attempts += error.getValue().asLong();
      }
    }
    assertTrue(attempts > 0, "no call failed with Connection refused: " + run.errors("say"));
    assertTrue(attempts <= 1000 + 2 * 50, attempts + " refused connections in " + run.count("say") + " calls");
    assertTrue(run.errors("say").matches(".*reconnecting in \\d+ ms after: UNAVAILABLE: io exception \\(.*Connection refused.*"), run.errors("say"));
  }


  /**
   * One call to a server of its own first: on a loaded machine a new JVM's first gRPC call on both
   * sides (class loading, first compilations) took about a second, which the recovery must not count.
   */
  private static void warmUp() throws Exception {
    GrpcBenchmarkServer server = GrpcBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO);
    ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
    try {
      HelloGrpc.newBlockingStub(channel).withDeadlineAfter(20, TimeUnit.SECONDS).say(BenchmarkMessages.request());
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.close();
    }
  }

  @Test
  void callsSucceedAgainWithinOneBackoffStepOnceTheServerIsBack() throws Exception {
    warmUp();
    Duration maxDelay = Duration.ofSeconds(1);
    ServerComesBack.assertCallsSucceedWithinOneStep(
        port -> GrpcBenchmarkServer.start("127.0.0.1", port, Duration.ZERO),
        port -> grpc.target("127.0.0.1:" + port).channelPerUser().reconnectBackoff(Duration.ofMillis(100), maxDelay),
        maxDelay,
        say().check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK)),
        50);
  }
}
