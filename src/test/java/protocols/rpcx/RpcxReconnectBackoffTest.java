package protocols.rpcx;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.rpcx.RpcxDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import benchmark.rpcx.RpcxBenchmarkServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.Doorman;
import protocols.testkit.GatlingRun;
import protocols.testkit.ServerComesBack;

/**
 * The reconnect backoff (protocols.core.ReconnectBackoff) in front of rpcx's connections, through the real
 * Gatling engine: a thousand users with a connection each against a target that accepts every connection
 * and closes it at once, and a real server that takes the target's port back.
 */
class RpcxReconnectBackoffTest {

  private static RpcxRequestBuilder<com.google.protobuf.MessageLite, BenchmarkMessage> say() {
    return rpcx("say").call("Hello", "Say").protobuf(BenchmarkMessage.parser()).payload(BenchmarkMessages.request());
  }

  @Test
  void aThousandUsersMakeAtMostFiftyConnectionAttemptsASecondAgainstATargetThatDropsThem() throws Exception {
    try (Doorman doorman = new Doorman()) {
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      scenario("dropped")
                          .during(Duration.ofSeconds(4))
                          .on(exec(say()).pause(Duration.ofMillis(50)))
                          .injectOpen(atOnceUsers(1000)))
                  .protocols(rpcx.target("127.0.0.1:" + doorman.port()).connectionPerUser()));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      // the first second holds the users' first attempts (1000, accepted here one after the other),
      // the other 3 at most 50 a second; without the backoff, every call of every user reconnects
      long attempts = doorman.accepted.size();
      assertTrue(attempts <= 1000 + 3 * 50, attempts + " connections; " + run);
      assertEquals(0, run.ok("say"), run.toString());
      assertTrue(run.errors("say").contains("reconnecting in "), run.errors("say"));
      assertTrue(run.errors("say").contains("after: connection to 127.0.0.1:" + doorman.port()), run.errors("say"));
    }
  }

  @Test
  void callsSucceedAgainWithinOneBackoffStepOnceTheServerIsBack() throws Exception {
    Duration maxDelay = Duration.ofSeconds(1);
    ServerComesBack.assertCallsSucceedWithinOneStep(
        port -> RpcxBenchmarkServer.start("127.0.0.1", port, Duration.ZERO),
        port -> rpcx.target("127.0.0.1:" + port).connectionPerUser().reconnectBackoff(Duration.ofMillis(100), maxDelay),
        maxDelay,
        say().check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK)),
        50);
  }

  @Test
  void aBackoffThatIsNotPositiveIsRefusedNamingTheOption() {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> rpcx.target("127.0.0.1:1").reconnectBackoff(Duration.ZERO, Duration.ofSeconds(1)));
    assertTrue(error.getMessage().startsWith("rpcx.reconnectBackoff: "), error.getMessage());
  }
}
