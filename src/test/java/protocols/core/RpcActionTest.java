package protocols.core;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.Probe.probe;
import static protocols.core.check.RpcChecks.*;

import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import protocols.testkit.GatlingRun;

/** The shared bridge, run through the real Gatling engine with a probe framework. */
class RpcActionTest {

  private static final ProtocolBuilder PROBE =
      Probe.protocol(Duration.ofMillis(300), ConnectionModel.shared(1));

  @BeforeEach
  void resetProbe() {
    Probe.resetCounters();
  }

  private static GatlingRun run() {
    return GatlingRun.run(ProbeSimulation.class, Map.of());
  }

  @Test
  void logsExactlyOneOkResponsePerCall() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("ok")
                        .repeat(5)
                        .on(exec(probe("echo").payload("hi").answer((req, s) -> CompletableFuture.completedFuture(req))))
                        .injectOpen(atOnceUsers(4)))
                .protocols(PROBE)
                .assertions(
                    global().allRequests().count().is(20L), global().failedRequests().count().is(0L)));

    GatlingRun run = run();

    assertEquals(0, run.exitCode, "Gatling's own count must be exactly 20 calls, all OK");
    assertEquals(20, run.ok("echo"));
  }

  @Test
  void aPayloadThatThrowsIsAKoWithItsMessage() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("payload")
                        .exec(
                            probe("broken")
                                .payload(s -> { throw new IllegalStateException("no such user"); })
                                .answer((req, s) -> CompletableFuture.completedFuture(req)))
                        .injectOpen(atOnceUsers(1)))
                .protocols(PROBE)
                .assertions(global().failedRequests().count().is(1L)));

    GatlingRun run = run();

    assertEquals(0, run.exitCode);
    assertTrue(run.errors("broken").contains("building the request failed: IllegalStateException: no such user"), run.errors("broken"));
  }

  @Test
  void aClientThatThrowsIsAKoWithItsMessage() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("client")
                        .exec(probe("throws").payload("x").answer((req, s) -> { throw new java.io.IOException("socket closed"); }))
                        .injectOpen(atOnceUsers(1)))
                .protocols(PROBE)
                .assertions(global().failedRequests().count().is(1L)));

    GatlingRun run = run();

    assertEquals(0, run.exitCode);
    assertTrue(run.errors("throws").contains("IOException: socket closed"), run.errors("throws"));
  }

  @Test
  void aFailedFutureIsAKoWithItsMessage() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("future")
                        .exec(probe("fails").payload("x").answer((req, s) -> CompletableFuture.failedFuture(new IllegalArgumentException("bad request"))))
                        .injectOpen(atOnceUsers(1)))
                .protocols(PROBE)
                .assertions(global().failedRequests().count().is(1L)));

    GatlingRun run = run();

    assertEquals(0, run.exitCode);
    assertTrue(run.errors("fails").contains("IllegalArgumentException: bad request"), run.errors("fails"));
  }

  @Test
  void aCallThatNeverAnswersTimesOutAsAKoAndTheSimulationEnds() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("silent")
                        .exec(probe("silent").payload("x").answer((req, s) -> new CompletableFuture<>()))
                        .injectOpen(atOnceUsers(3)))
                .protocols(PROBE)
                .assertions(global().failedRequests().count().is(3L)));

    GatlingRun run = run();

    assertEquals(0, run.exitCode);
    assertTrue(run.errors("silent").contains("no response within the timeout of 300 ms"), run.errors("silent"));
    assertTrue(run.request("silent").get("min").asLong() >= 300_000, "timed out no earlier than the timeout");
    assertTrue(run.wallTime.toSeconds() < 20, "ended on schedule: " + run.wallTime);
  }

  @Test
  void messagesAlikeButForTheirNumbersAreOneKindAndCrowdOutNoOther() {
    // a hundred and more deadlines, each naming its own delay, filled the record's hundred kinds before
    java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("kinds")
                        .repeat(150)
                        .on(exec(probe("alike").payload("x").answer((req, s) -> {
                          int call = calls.incrementAndGet();
                          String message = call == 150 ? "the one that says why" : "deadline exceeded after " + call + "." + 7 * call + "s";
                          return CompletableFuture.failedFuture(new IllegalStateException(message));
                        })))
                        .injectOpen(atOnceUsers(1)))
                .protocols(PROBE)
                .assertions(global().failedRequests().count().is(150L)));

    GatlingRun run = run();

    com.fasterxml.jackson.databind.JsonNode errors = run.request("alike").path("errors");
    assertEquals(2, errors.size(), errors.toString());
    assertEquals(149, errors.path("IllegalStateException: deadline exceeded after 1.7s (and others alike but for their numbers)").asLong(), errors.toString());
    assertEquals(1, errors.path("IllegalStateException: the one that says why").asLong(), errors.toString());
  }

  @Test
  void aRequestTimeoutOverridesTheProtocolDefault() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("override")
                        .exec(probe("short").payload("x").timeout(Duration.ofMillis(100)).answer((req, s) -> new CompletableFuture<>()))
                        .injectOpen(atOnceUsers(1)))
                .protocols(PROBE));

    GatlingRun run = run();

    assertTrue(run.errors("short").contains("timeout of 100 ms"), run.errors("short"));
  }

  @Test
  void aFailingCheckIsAKoNamingTheCheck() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("check")
                        .exec(
                            probe("checked")
                                .payload("pong")
                                .answer((req, s) -> CompletableFuture.completedFuture(req))
                                .check(response((String r) -> r).is("ping")))
                        .injectOpen(atOnceUsers(1)))
                .protocols(PROBE)
                .assertions(global().failedRequests().count().is(1L)));

    GatlingRun run = run();

    assertEquals(0, run.exitCode);
    assertTrue(run.errors("checked").contains("response.find.is(ping), found pong"), run.errors("checked"));
  }

  @Test
  void aPredicateCheckNamesItsDescriptionWhenItFails() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("predicate")
                        .exec(
                            probe("predicate")
                                .payload("abc")
                                .answer((req, s) -> CompletableFuture.completedFuture(req))
                                .check(responseThat("is upper case", (String r) -> r.equals(r.toUpperCase()))))
                        .injectOpen(atOnceUsers(1)))
                .protocols(PROBE));

    GatlingRun run = run();

    assertEquals(1, run.ko("predicate"));
    assertTrue(run.errors("predicate").contains("is upper case"), run.errors("predicate"));
  }

  @Test
  void requestNamesResolveGatlingExpressionLanguage() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("el")
                        .exec(session -> session.set("shard", 7))
                        .exec(probe("get shard #{shard}").payload("x").answer((req, s) -> CompletableFuture.completedFuture(req)))
                        .injectOpen(atOnceUsers(1)))
                .protocols(PROBE));

    GatlingRun run = run();

    assertEquals(1, run.ok("get shard 7"));
  }

  @Test
  void saveAsStoresAnExtractedValueForLaterRequests() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("saveAs")
                        .exec(
                            probe("login")
                                .payload("token-42")
                                .answer((req, s) -> CompletableFuture.completedFuture(req))
                                .check(response((String r) -> r.substring(6)).saveAs("token")))
                        .exec(probe("use #{token}").payload(s -> s.getString("token")).answer((req, s) -> CompletableFuture.completedFuture(req)))
                        .injectOpen(atOnceUsers(1)))
                .protocols(PROBE));

    GatlingRun run = run();

    assertEquals(1, run.ok("use 42"));
  }

  @Test
  void aStatusCheckCanExpectAFailure() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("expected failure")
                        .exec(
                            probe("must fail")
                                .payload("x")
                                .answer((req, s) -> CompletableFuture.failedFuture(new IllegalStateException("denied")))
                                .check(status().is("IllegalStateException")))
                        .injectOpen(atOnceUsers(1)))
                .protocols(PROBE)
                .assertions(global().failedRequests().count().is(0L)));

    GatlingRun run = run();

    assertEquals(0, run.exitCode);
    assertEquals(1, run.ok("must fail"));
  }

  @Test
  void tryMaxRetriesAFailedCall() {
    java.util.concurrent.atomic.AtomicInteger attempts = new java.util.concurrent.atomic.AtomicInteger();
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("retry")
                        .tryMax(5)
                        .on(
                            exec(
                                probe("flaky")
                                    .payload("x")
                                    .answer(
                                        (req, s) ->
                                            attempts.incrementAndGet() < 3
                                                ? CompletableFuture.failedFuture(new IllegalStateException("try again"))
                                                : CompletableFuture.completedFuture(req))))
                        .injectOpen(atOnceUsers(1)))
                .protocols(PROBE));

    GatlingRun run = run();

    assertEquals(2, run.ko("flaky"));
    assertEquals(1, run.ok("flaky"));
  }

  @Test
  void exitBlockOnFailStopsTheBlockAtTheFirstKo() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("exitBlockOnFail")
                        .exitBlockOnFail()
                        .on(
                            exec(probe("first").payload("x").answer((req, s) -> CompletableFuture.failedFuture(new IllegalStateException("down")))),
                            exec(probe("second").payload("x").answer((req, s) -> CompletableFuture.completedFuture(req))))
                        .exec(probe("after").payload("x").answer((req, s) -> CompletableFuture.completedFuture(req)))
                        .injectOpen(atOnceUsers(1)))
                .protocols(PROBE));

    GatlingRun run = run();

    assertEquals(1, run.ko("first"));
    assertThrows(AssertionError.class, () -> run.request("second"), "the block was left before 'second'");
    assertEquals(1, run.ok("after"));
  }

  @Test
  void duringWithExitAsapStopsCallingWhenTimeIsUp() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("during")
                        .during(Duration.ofSeconds(1))
                        .on(exec(probe("loop").payload("x").answer((req, s) -> CompletableFuture.supplyAsync(() -> req, CompletableFuture.delayedExecutor(50, java.util.concurrent.TimeUnit.MILLISECONDS)))))
                        .injectOpen(atOnceUsers(1)))
                .protocols(PROBE));

    GatlingRun run = run();

    long calls = run.count("loop");
    assertTrue(calls >= 10 && calls <= 22, "about 20 calls of 50 ms in 1 s, got " + calls);
  }

  @Test
  void throttleLimitsTheCallRate() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("throttled")
                        .forever()
                        .on(exec(probe("limited").payload("x").answer((req, s) -> CompletableFuture.completedFuture(req))))
                        .injectOpen(atOnceUsers(20)))
                .protocols(PROBE)
                .throttle(reachRps(50).in(Duration.ZERO), holdFor(Duration.ofSeconds(2)))
                .maxDuration(Duration.ofSeconds(2)));

    GatlingRun run = run();

    long calls = run.count("limited");
    assertTrue(calls > 20 && calls <= 130, "about 100 calls at 50/s for 2 s, got " + calls);
  }

  @Test
  void sharedConnectionsAreOpenedOnceAndClosedAtTheEnd() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("shared")
                        .repeat(3)
                        .on(exec(probe("call").payload("x").answer((req, s) -> CompletableFuture.completedFuture(req))))
                        .injectOpen(atOnceUsers(10)))
                .protocols(Probe.protocol(Duration.ofSeconds(1), ConnectionModel.shared(2))));

    run();

    assertEquals(2, Probe.opened.get());
    assertEquals(2, Probe.closed.get());
  }

  @Test
  void perUserConnectionsAreOpenedForEachUserAndClosedWhenItExits() throws InterruptedException {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("per user")
                        .repeat(3)
                        .on(exec(probe("call").payload("x").answer((req, s) -> CompletableFuture.completedFuture(req))))
                        .injectOpen(atOnceUsers(10)))
                .protocols(Probe.protocol(Duration.ofSeconds(1), ConnectionModel.perUser())));

    run();

    assertEquals(10, Probe.opened.get());
    assertEquals(10, closedWithin(Duration.ofSeconds(5)), "each user's client closed (off the event loop)");
  }

  @Test
  void aPerUserClientThatTurnedUnusableIsReplacedClosedAndNeverCalledAgain() throws InterruptedException {
    Probe.callsPerClient = 2; // each user's 5 calls: 2 on its first client, 2 on its second, 1 on its third
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("per user")
                        .repeat(5)
                        .on(exec(probe("call").payload("x").answer((req, s) -> CompletableFuture.completedFuture(req))))
                        .injectOpen(atOnceUsers(10)))
                .protocols(Probe.protocol(Duration.ofSeconds(1), ConnectionModel.perUser())));

    GatlingRun result = run();

    assertEquals(0, result.exitCode);
    assertEquals(0, Probe.callsOnUnusableClients.get(), "calls on a client after it turned unusable");
    assertEquals(30, Probe.opened.get(), "3 clients for each user's 5 calls");
    assertEquals(30, closedWithin(Duration.ofSeconds(5)), "every client closed: replaced ones and the last ones");
  }

  @Test
  void aCallInsideAGroupAddsItsTimeToTheGroupsCumulatedResponseTime() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("grouped")
                        .group("slow group")
                        .on(
                            exec(probe("slow").payload("x").answer((req, s) -> CompletableFuture.supplyAsync(
                                () -> req, CompletableFuture.delayedExecutor(60, java.util.concurrent.TimeUnit.MILLISECONDS)))))
                        .injectOpen(atOnceUsers(5)))
                .protocols(PROBE)
                // a group's response time is, by default, the cumulated time of its requests
                .assertions(details("slow group").responseTime().min().gte(50)));

    GatlingRun run = run();

    assertEquals(0, run.exitCode, "each group's cumulated response time holds its 60 ms call; " + run);
  }

  @Test
  void aPerUserClientIsGivenItsUsersOwnEventLoop() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("per user")
                        .repeat(5)
                        .on(exec(probe("call").payload("x").answer((req, s) -> CompletableFuture.completedFuture(req))))
                        .injectOpen(atOnceUsers(12)))
                .protocols(Probe.protocol(Duration.ofSeconds(1), ConnectionModel.perUser())));

    run();

    assertEquals(12, Probe.opened.get());
    assertEquals(0, Probe.callsOffTheirClientsLoop.get(), "every call sent on the loop its client runs on");
  }

  @Test
  void usersAreGivenTheSharedClientsOfTheirOwnEventLoop() {
    // more clients than Gatling has event loops, so that every loop has some
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("shared")
                        .repeat(5)
                        .on(exec(probe("call").payload("x").answer((req, s) -> CompletableFuture.completedFuture(req))))
                        .injectOpen(atOnceUsers(40)))
                .protocols(Probe.protocol(Duration.ofSeconds(1), ConnectionModel.shared(64))));

    run();

    assertEquals(0, Probe.callsOffTheirClientsLoop.get(), "every call sent on the loop its client runs on");
  }

  private static int closedWithin(Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (Probe.closed.get() < Probe.opened.get() && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    return Probe.closed.get();
  }
}
