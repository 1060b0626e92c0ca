package protocols.motan;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.motan.MotanDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.motan.BenchmarkServiceAsync;
import benchmark.motan.MotanBenchmarkServer;
import benchmark.pb.BenchmarkMessage;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.testkit.GatlingRun;

/** The benchmark provider applies the seed's server rule, after its service time. */
class MotanBenchmarkServerTest {

  private static BenchmarkMessage decode(byte[] reply) {
    try {
      return BenchmarkMessage.parseFrom(reply);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Test
  void repliesField1OkAndField2OneHundredAfterItsServiceTime() throws Exception {
    try (MotanBenchmarkServer provider = MotanBenchmarkServer.start(0, Duration.ofMillis(50))) {
      MotanTestSimulation.define(
          sim ->
              sim.setUp(
                      scenario("service time")
                          .exec(
                              motan("say")
                                  .service(BenchmarkServiceAsync.class)
                                  .call(BenchmarkServiceAsync::sayAsync, byte[].class)
                                  .payload(BenchmarkMessages.request().toByteArray())
                                  .check(response((byte[] reply) -> decode(reply).getField1()).is("OK"))
                                  .check(response((byte[] reply) -> decode(reply).getField2()).is(100))
                                  .check(response((byte[] reply) -> reply.length).is(527)))
                          .injectOpen(atOnceUsers(3)))
                  .protocols(motan.target("127.0.0.1:" + provider.port()))
                  .assertions(global().failedRequests().count().is(0L)));

      GatlingRun run = GatlingRun.run(MotanTestSimulation.class, Map.of());

      assertEquals(0, run.exitCode, run.toString());
      assertEquals(3, run.ok("say"));
      assertTrue(run.request("say").get("min").asLong() >= 50_000, "waited the service time: " + run);
    }
  }
}
