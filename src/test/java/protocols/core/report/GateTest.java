package protocols.core.report;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.core.ConnectionModel;
import protocols.core.LatencyRecord;
import protocols.core.Probe;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;

/** The baseline gate of any simulation: -Dbaseline=<run folder or rpc-latency.json> -Dgate=metric:percent. */
class GateTest {

  static GatlingRun baseline;

  @TempDir Path dir;

  static void define() {
    ProbeSimulation.define(sim -> sim.setUp(
            scenario("calls")
                .repeat(200)
                .on(exec(Probe.probe("echo").payload("hi").answer((req, s) -> CompletableFuture.completedFuture(req))))
                .injectOpen(atOnceUsers(2)))
        .protocols(Probe.protocol(Duration.ofSeconds(5), ConnectionModel.shared(1))));
  }

  @BeforeAll
  static void runBaseline() {
    define();
    baseline = GatlingRun.run(ProbeSimulation.class, Map.of());
    assertEquals(0, baseline.exitCode, baseline.toString());
  }

  @Test
  void theGatePassesWhenNothingRegressedPastItsThresholds() throws Exception {
    define();

    GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of("baseline", baseline.runFolder.toString(), "gate", "p50:100000"));

    assertEquals(0, run.exitCode, run.toString());
    assertTrue(RunReportTest.pageData(run.runFolder.resolve(RunEnd.PAGE)).get("gate").get("changes").has("echo"), "the change shows on the page");
  }

  @Test
  void theGateFailsTheRunWhenAFigureRegressedPastItsThreshold() throws Exception {
    Path fast = Files.writeString(dir.resolve("fast.json"), Files.readString(baseline.runFolder.resolve(LatencyRecord.SUMMARY_FILE))
        .replaceAll("\"max\": \\d+", "\"max\": 1"));
    define();

    GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of("baseline", fast.toString(), "gate", "max:20"));

    assertEquals(RunEnd.REGRESSED, run.exitCode, run.toString());
    String regressions = RunReportTest.pageData(run.runFolder.resolve(RunEnd.PAGE)).get("gate").get("regressions").toString();
    assertTrue(regressions.contains("'echo': max +"), regressions);
  }

  @Test
  void theGateRefusesAMatrixResultAsAForeignBaseline() throws Exception {
    Path matrix = Files.writeString(dir.resolve("results.json"), "{\"format\": \"gatling-rpc-matrix/1\", \"cells\": []}");
    define();

    GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of("baseline", matrix.toString(), "gate", "p99:20"));

    assertEquals(RunEnd.BASELINE_UNUSABLE, run.exitCode, run.toString());
    String error = RunReportTest.pageData(run.runFolder.resolve(RunEnd.PAGE)).get("gate").get("error").asText();
    assertTrue(error.contains("not a run's rpc-latency.json"), error);
  }

  @Test
  void theGateRefusesTheRecordOfAnotherSimulation() throws Exception {
    Path other = Files.writeString(dir.resolve("other.json"), Files.readString(baseline.runFolder.resolve(LatencyRecord.SUMMARY_FILE))
        .replace("\"echo\"", "\"Say\""));
    RunData data = RunData.read(baseline.runFolder);

    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> RunEnd.gate(data, other, Gate.parse("p99:20")));

    assertTrue(error.getMessage().contains("the record of another simulation: no request name in common (baseline: [Say], this run: [echo])"), error.getMessage());
  }
}
