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
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.Doorman;
import protocols.testkit.GatlingRun;

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

  /** The port may be held for a moment by a client that connected to itself (see the Thrift test). */
  private static MotanBenchmarkServer startOnTheSamePort(int port) throws Exception {
    long giveUp = System.nanoTime() + 3_000_000_000L;
    while (true) {
      try {
        return MotanBenchmarkServer.start(port, Duration.ZERO);
      } catch (RuntimeException held) {
        if (System.nanoTime() > giveUp) {
          throw held;
        }
        Thread.sleep(50);
      }
    }
  }

  @Test
  void callsSucceedAgainWithinOneBackoffStepOnceTheProviderIsBack() throws Exception {
    Duration maxDelay = Duration.ofSeconds(1);
    AtomicLong back = new AtomicLong();
    AtomicLong firstOk = new AtomicLong();
    AtomicReference<MotanBenchmarkServer> server = new AtomicReference<>();
    AtomicReference<Throwable> swapFailure = new AtomicReference<>();
    // a first provider in this JVM, so that the recovery does not count Motan's class loading
    MotanBenchmarkServer.start(0, Duration.ZERO).close();
    try (Doorman doorman = new Doorman()) {
      int port = doorman.port();
      doorman.afterFirst =
          () -> {
            Thread swap =
                new Thread(
                    () -> {
                      try {
                        Thread.sleep(2500); // long enough for the backoff to reach its longest delay
                        doorman.close();
                        server.set(startOnTheSamePort(port));
                        back.set(System.nanoTime());
                      } catch (Exception e) {
                        swapFailure.set(e);
                      }
                    });
            swap.setDaemon(true);
            swap.start();
          };
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      scenario("back")
                          .asLongAsDuring(session -> firstOk.get() == 0, Duration.ofSeconds(20))
                          .on(
                              exec(say().check(responseThat("a reply", (byte[] reply) -> reply.length > 0)))
                                  .exec(
                                      session -> {
                                        if (!session.isFailed()) {
                                          firstOk.compareAndSet(0, System.nanoTime());
                                        }
                                        return session.markAsSucceeded();
                                      })
                                  .pause(Duration.ofMillis(50)))
                          .injectOpen(atOnceUsers(20)))
                  .protocols(
                      motan.target("127.0.0.1:" + port)
                          .clientPerUser()
                          .requestTimeout(Duration.ofSeconds(1)) // calls on connections the doorman closed end soon
                          .reconnectBackoff(Duration.ofMillis(100), maxDelay)));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      assertNull(swapFailure.get(), "the provider could not come back on port " + port);
      assertTrue(back.get() != 0, "the provider came back during the run: " + run);
      assertTrue(run.ok("say") > 0, run.toString());
      long recoveredMillis = (firstOk.get() - back.get()) / 1_000_000;
      assertTrue(
          recoveredMillis <= maxDelay.toMillis() + 1500,
          "first OK " + recoveredMillis + " ms after the provider came back; KOs: " + run.errors("say"));
      assertTrue(run.errors("say").contains("reconnecting in "), run.errors("say"));
    } finally {
      if (server.get() != null) {
        server.get().close();
      }
    }
  }
}
