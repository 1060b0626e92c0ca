package protocols.motan;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.motan.MotanDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.motan.BenchmarkServiceAsync;
import benchmark.motan.MotanBenchmarkServer;
import benchmark.motan.MotanProvider;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import protocols.testkit.GatlingRun;

/** Each fault is a KO with a readable message, and the simulation still ends on schedule. */
class MotanFaultsTest {

  private static final byte[] REQUEST = BenchmarkMessages.request().toByteArray();

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** Calculators that fail in the ways a provider can. */
  static class FailingCalculator extends AnyMotanServiceTest.CalculatorImpl {
    private final Duration delay;
    private final RuntimeException error;

    FailingCalculator(Duration delay, RuntimeException error) {
      this.delay = delay;
      this.error = error;
    }

    @Override
    public int add(int a, int b) {
      try {
        Thread.sleep(delay.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      if (error != null) {
        throw error;
      }
      return a + b;
    }
  }

  private static GatlingRun runAdds(int port, Duration timeout, int users) {
    MotanTestSimulation.define(
        sim ->
            sim.setUp(
                    scenario("adds")
                        .repeat(2)
                        .on(
                            exec(
                                motan("add")
                                    .service(CalculatorAsync.class)
                                    .call((CalculatorAsync calculator, Integer n) -> calculator.addAsync(n, n), Integer.class)
                                    .payload(21)
                                    .check(response((Integer sum) -> sum).is(42))))
                        .injectOpen(atOnceUsers(users)))
                .protocols(motan.target("127.0.0.1:" + port).requestTimeout(timeout)));
    return GatlingRun.run(MotanTestSimulation.class, Map.of());
  }

  @Test
  void noProviderAtTheAddressIsAnUnavailableKo() throws Exception {
    int port = freePort();

    GatlingRun run = runAdds(port, Duration.ofSeconds(1), 3);

    assertEquals(6, run.ko("add"), run.toString());
    // "NettyClient getChannel Error: url=motan://127.0.0.1:<port>/...", or, once Motan has marked the
    // provider down after repeated failures, "No available referers for call : ..."
    assertTrue(run.request("add").get("errors").size() > 0, run.toString());
    run.request("add").get("errors").fieldNames().forEachRemaining(
        message ->
            assertTrue(
                (message.startsWith("UNAVAILABLE: ") || message.startsWith("reconnecting in ")) // the core backoff
                    && message.contains("protocols.motan.Calculator"),
                message));
    assertTrue(run.wallTime.toSeconds() < 20, "ended on schedule: " + run.wallTime);
  }

  @Test
  void aProviderThatThrowsIsAKoWithItsMessage() throws Exception {
    try (MotanProvider<Calculator> provider =
        MotanProvider.export(
            Calculator.class,
            new FailingCalculator(Duration.ZERO, new IllegalStateException("no sums today")),
            MotanProvider.options())) {

      GatlingRun run = runAdds(provider.port(), Duration.ofSeconds(2), 3);

      assertEquals(6, run.ko("add"), run.toString());
      assertTrue(run.errors("add").contains("the provider threw IllegalStateException: no sums today"), run.errors("add"));
    }
  }

  @Test
  void aProviderSlowerThanTheRequestTimeoutIsATimeoutKo() throws Exception {
    try (MotanProvider<Calculator> provider =
        MotanProvider.export(
            Calculator.class, new FailingCalculator(Duration.ofSeconds(2), null), MotanProvider.options())) {

      GatlingRun run = runAdds(provider.port(), Duration.ofMillis(300), 2);

      assertEquals(4, run.ko("add"), run.toString());
      assertTrue(run.errors("add").contains("no response within the timeout of 300 ms"), run.errors("add"));
      assertTrue(run.request("add").get("min").asLong() >= 300_000, "timed out no earlier than the timeout: " + run);
      assertTrue(run.wallTime.toSeconds() < 20, "ended on schedule: " + run.wallTime);
    }
  }

  @Test
  void aProviderStoppedMidRunFailsCallsWhileDownThenRecovers() throws Exception {
    int port = freePort();
    AtomicReference<String> phase = new AtomicReference<>("up");
    AtomicInteger callsInPhase = new AtomicInteger();
    AtomicInteger replies = new AtomicInteger();
    AtomicReference<MotanBenchmarkServer> provider =
        new AtomicReference<>(MotanBenchmarkServer.start(port, Duration.ZERO));
    // users call until 3 s after the provider is back; each step waits for calls to happen, as
    // starting Gatling and restarting a provider take seconds on a loaded machine
    long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
    AtomicLong end = new AtomicLong(deadline);
    MotanTestSimulation.define(
        sim ->
            sim.setUp(
                    scenario("stop and start")
                        .asLongAs(session -> System.nanoTime() < end.get())
                        .on(
                            exec(session -> session.set("phase", phase.get()))
                                .exec(
                                    motan("say #{phase}")
                                        .service(BenchmarkServiceAsync.class)
                                        .call(BenchmarkServiceAsync::sayAsync, byte[].class)
                                        .payload(
                                            session -> {
                                              callsInPhase.incrementAndGet();
                                              return REQUEST;
                                            })
                                        .check(
                                            responseThat(
                                                "a reply",
                                                (byte[] reply) -> replies.incrementAndGet() > 0 && reply.length > 0)))
                                .pause(Duration.ofMillis(20)))
                        .injectOpen(atOnceUsers(5)))
                .protocols(motan.target("127.0.0.1:" + port).requestTimeout(Duration.ofSeconds(1))));
    Thread operator =
        new Thread(
            () -> {
              try {
                awaitAtLeast(replies, 20, deadline);
                provider.get().close();
                callsInPhase.set(0);
                phase.set("down");
                awaitAtLeast(callsInPhase, 20, deadline);
                phase.set("restarted");
                provider.set(MotanBenchmarkServer.start(port, Duration.ZERO));
                end.set(Math.min(deadline, System.nanoTime() + Duration.ofSeconds(3).toNanos()));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });

    GatlingRun run;
    try {
      operator.start();
      run = GatlingRun.run(MotanTestSimulation.class, Map.of());
    } finally {
      operator.join();
      provider.get().close();
    }

    assertTrue(run.ok("say up") > 0, run.toString());
    assertEquals(0, run.ok("say down"), run.toString());
    assertTrue(run.ko("say down") > 0, run.toString());
    run.request("say down").get("errors").fieldNames().forEachRemaining(
        message -> assertTrue(message.startsWith("UNAVAILABLE: ") || message.startsWith("reconnecting in "), message));
    assertTrue(run.ok("say restarted") > 0, "recovered after the restart: " + run);
    assertTrue(run.wallTime.toSeconds() < 60, "ended on schedule: " + run.wallTime);
  }

  private static void awaitAtLeast(AtomicInteger counter, int count, long deadlineNanos)
      throws InterruptedException {
    while (counter.get() < count && System.nanoTime() < deadlineNanos) {
      Thread.sleep(20);
    }
  }
}
