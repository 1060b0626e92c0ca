package protocols.core;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.Probe.probe;

import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import protocols.testkit.GatlingRun;

/**
 * Responses reach Gatling's stats a few milliseconds after they end, a loop's together ({@link
 * ResponseBatch}): none is lost when the last user ends right after its last response, OK or KO,
 * answered on the loop or elsewhere, nor while users still run.
 */
class ResponseBatchTest {

  private static final ProtocolBuilder PROBE = Probe.protocol(Duration.ofSeconds(5), ConnectionModel.shared(4));

  /** Completes answers on a thread of its own a little later, as a client library's I/O thread does. */
  private static final Executor ELSEWHERE = CompletableFuture.delayedExecutor(100, TimeUnit.MICROSECONDS);

  @BeforeEach
  void resetProbe() {
    Probe.resetCounters();
  }

  @Test
  void everyOkResponseIsInGatlingsStatsWhenTheLastUserEnds() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("on the loop")
                        .repeat(40)
                        .on(exec(probe("at once").payload("hi").answer((req, s) -> CompletableFuture.completedFuture(req))))
                        .injectOpen(atOnceUsers(200)),
                    scenario("elsewhere")
                        .repeat(40)
                        .on(exec(probe("later").payload("hi").answer((req, s) -> CompletableFuture.supplyAsync(() -> req, ELSEWHERE))))
                        .injectOpen(atOnceUsers(200)))
                .protocols(PROBE)
                .assertions(
                    details("at once").allRequests().count().is(8000L),
                    details("later").allRequests().count().is(8000L),
                    global().failedRequests().count().is(0L)));

    GatlingRun run = run();

    assertEquals(0, run.exitCode, "Gatling's own counts must be exactly 8,000 calls of each, all OK; " + run);
    assertEquals(8000, run.ok("at once"));
    assertEquals(8000, run.ok("later"));
  }

  @Test
  void everyKoResponseIsInGatlingsStatsWhenTheLastUserEnds() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("failing")
                        .repeat(50)
                        .on(exec(probe("refused").payload("hi").answer((req, s) -> CompletableFuture.failedFuture(new java.net.ConnectException("refused")))))
                        .injectOpen(atOnceUsers(100)))
                .protocols(PROBE)
                .assertions(details("refused").failedRequests().count().is(5000L), global().successfulRequests().count().is(0L)));

    GatlingRun run = run();

    assertEquals(0, run.exitCode, "Gatling's own count must be exactly 5,000 KOs; " + run);
    assertEquals(5000, run.ko("refused"));
  }

  @Test
  void responsesReachGatlingsStatsWithinTheHoldWhileTheirUsersStillRun() {
    // the users pause past the run's end, so no user's exit posts their responses: only the hold's end does
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("pausing")
                        .exec(probe("then pause").payload("hi").answer((req, s) -> CompletableFuture.completedFuture(req)))
                        .pause(Duration.ofSeconds(60))
                        .injectOpen(atOnceUsers(100)))
                .protocols(PROBE)
                .maxDuration(Duration.ofSeconds(3))
                .assertions(details("then pause").allRequests().count().is(100L)));

    GatlingRun run = run();

    assertEquals(0, run.exitCode, "Gatling's own count must be exactly 100 calls, posted while their users pause; " + run);
  }

  @Test
  void aResponseInsideGroupsIsCountedUnderItsInnermostGroupsPath() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("groups")
                        .repeat(10)
                        .on(
                            exec(probe("outside").payload("hi").answer((req, s) -> CompletableFuture.completedFuture(req)))
                                .group("outer")
                                .on(
                                    group("inner")
                                        .on(exec(probe("inside").payload("hi").answer((req, s) -> CompletableFuture.completedFuture(req))))))
                        .injectOpen(atOnceUsers(20)))
                .protocols(PROBE)
                .assertions(
                    details("outside").allRequests().count().is(200L),
                    details("outer", "inner", "inside").allRequests().count().is(200L)));

    GatlingRun run = run();

    assertEquals(0, run.exitCode, "Gatling must count 200 calls outside any group and 200 in outer / inner; " + run);
  }

  private static GatlingRun run() {
    return GatlingRun.run(ProbeSimulation.class, Map.of());
  }
}
