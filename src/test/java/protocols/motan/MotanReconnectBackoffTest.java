package protocols.motan;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.motan.MotanDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.motan.BenchmarkServiceAsync;
import benchmark.motan.MotanBenchmarkServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.Doorman;
import protocols.testkit.GatlingRun;
import protocols.testkit.ServerComesBack;

/**
 * The core reconnect backoff in front of Motan's clients, whose own Netty client reconnects on every
 * call and heartbeats a provider it marked down every 500 ms (about one connection a second per client
 * against a target that drops them, measured before the backoff).
 */
class MotanReconnectBackoffTest {

  private static MotanRequestBuilder<BenchmarkServiceAsync, byte[], byte[]> say() {
    return motan("say")
        .service(BenchmarkServiceAsync.class)
        .call(BenchmarkServiceAsync::sayAsync, byte[].class)
        .payload(BenchmarkMessages.request().toByteArray());
  }

  @Test
  void usersWithAClientEachMakeAtMostFiftyConnectionAttemptsASecondOnceTheirFirstAttemptsAreOver() throws Exception {
    try (Doorman doorman = new Doorman()) {
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      scenario("dropped")
                          .during(Duration.ofSeconds(4))
                          .on(exec(say()).pause(Duration.ofMillis(50)))
                          .injectOpen(atOnceUsers(100)))
                  // a call on a connection the doorman closed waits for its timeout: keep it short
                  .protocols(motan.target("127.0.0.1:" + doorman.port()).clientPerUser().requestTimeout(Duration.ofSeconds(1))));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      // each client's referer opens its connections (2) and Motan may retry them at once: 2 s for
      // those on a loaded machine, then at most 50 a second for everyone; without the backoff, the
      // same 100 clients kept up about 120 a second
      long first = doorman.accepted.stream().mapToLong(Long::longValue).min().orElseThrow();
      long later = doorman.accepted.stream().filter(t -> t - first >= 2_000_000_000L).count();
      assertTrue(later <= 2 * 50, later + " connections after the first 2 s, " + doorman.accepted.size() + " in all; " + run);
      assertEquals(0, run.ok("say"), run.toString());
      assertTrue(run.errors("say").contains("reconnecting in "), run.errors("say"));
      assertTrue(run.errors("say").contains("after: UNAVAILABLE: "), run.errors("say"));
    }
  }


  @Test
  void callsSucceedAgainWithinOneBackoffStepOnceTheProviderIsBack() throws Exception {
    // a first provider in this JVM, so that the recovery does not count Motan's class loading
    MotanBenchmarkServer.start(0, Duration.ZERO).close();
    Duration maxDelay = Duration.ofSeconds(1);
    ServerComesBack.assertCallsSucceedWithinOneStep(
        port -> MotanBenchmarkServer.start(port, Duration.ZERO),
        port -> motan.target("127.0.0.1:" + port)
            .clientPerUser()
            .requestTimeout(Duration.ofSeconds(1)) // calls on connections the doorman closed end soon
            .reconnectBackoff(Duration.ofMillis(100), maxDelay),
        maxDelay,
        say().check(responseThat("a reply", (byte[] reply) -> reply.length > 0)),
        20);
  }
}
