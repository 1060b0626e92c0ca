package protocols.core.report;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.report.RpcAssertions.*;

import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import protocols.core.ConnectionModel;
import protocols.core.Probe;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;

/** Exact assertions in a simulation: they pass, fail the run, and leave out a warm-up on purpose. */
class RpcAssertionsTest {

  /** For 2.5 s, calls answered after {@code slowMillis} in the first half second from the first call, then at once (margins wide enough for a loaded machine). */
  static void define(long slowMillis, Runnable assertions) {
    AtomicLong firstCall = new AtomicLong();
    ProbeSimulation.define(sim -> {
      sim.setUp(
              scenario("calls")
                  .during(Duration.ofMillis(2500))
                  .on(exec(Probe.probe("echo").payload("hi").answer((req, s) -> {
                    long now = System.currentTimeMillis();
                    firstCall.compareAndSet(0, now);
                    long delay = now - firstCall.get() < 500 ? slowMillis : 0;
                    return CompletableFuture.supplyAsync(() -> req, CompletableFuture.delayedExecutor(delay, TimeUnit.MILLISECONDS));
                  })).pause(Duration.ofMillis(20)))
                  .injectOpen(atOnceUsers(2)))
          .protocols(Probe.protocol(Duration.ofSeconds(5), ConnectionModel.shared(1)));
      assertions.run();
    });
  }

  @Test
  void assertionsThatHoldLeaveTheRunGreenAndAreWrittenAsJUnitXml() throws Exception {
    define(0, () -> rpcAssertions(allRequests(), percentile(99.9).lt(Duration.ofMillis(500)), failedPercent().lt(0.1), throughput().gt(1)));

    GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

    assertEquals(0, run.exitCode, run.toString());
    String xml = Files.readString(run.runFolder.resolve(RunEnd.ASSERTIONS_XML));
    assertTrue(xml.contains("tests=\"3\" failures=\"0\""), xml);
    assertTrue(xml.contains("exact p99.9 of all requests &lt; 500.000 ms"), xml);
  }

  @Test
  void anAssertionThatFailsFailsTheRunAsGatlingsAssertionsDo() throws Exception {
    define(600, () -> rpcAssertions(request("echo"), max().lt(Duration.ofMillis(500))));

    GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

    assertEquals(RunEnd.ASSERTIONS_FAILED, run.exitCode, run.toString());
    String xml = Files.readString(run.runFolder.resolve(RunEnd.ASSERTIONS_XML));
    assertTrue(xml.contains("failures=\"1\"") && xml.contains("<failure message=\"actual: "), xml);
  }

  @Test
  void afterLeavesTheWarmUpOutOfTheAssertion() {
    define(600, () -> rpcAssertions(allRequests().after(Duration.ofMillis(1500)), max().lt(Duration.ofMillis(500))));

    GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

    assertEquals(0, run.exitCode, "the slow first second is left out: " + run);
  }

  @Test
  void theWarmupPropertyLeavesTheColdStartOutOfAnyAssertionWithoutAfter() throws Exception {
    define(600, () -> rpcAssertions(allRequests(), max().lt(Duration.ofMillis(500))));

    GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of("warmup", "1500ms"));

    assertEquals(0, run.exitCode, run.toString());
    assertTrue(Files.readString(run.runFolder.resolve(RunEnd.ASSERTIONS_XML)).contains("exact max of all requests after 1.5 s &lt; 500.000 ms"));
  }

  @Test
  void anAssertionOnAnUnknownRequestNameFailsNamingTheRecordedOnes() throws Exception {
    define(0, () -> rpcAssertions(request("ehco"), failedCount().is(0)));

    GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

    assertEquals(RunEnd.ASSERTIONS_FAILED, run.exitCode);
    assertTrue(Files.readString(run.runFolder.resolve(RunEnd.ASSERTIONS_XML)).contains("no request named 'ehco'; recorded: [echo]"));
  }
}
