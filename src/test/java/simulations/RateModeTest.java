package simulations;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import protocols.core.LatencyRecord;
import protocols.core.report.Merge;
import protocols.core.report.RunData;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.core.report.RunEnd;
import protocols.testkit.Chromium;
import java.nio.file.Files;
import java.nio.file.Path;
import protocols.testkit.GatlingRun;

/** -Drate: a fixed call rate on Gatling's open model, each call measured from its intended send time too. */
class RateModeTest {

  /**
   * A JVM's first seconds of gRPC calls (class loading, JIT) cost milliseconds of CPU each: on a busy
   * machine an open model's backlog from them outlasts any short warm-up. One short run first.
   */
  @BeforeAll
  static void warmTheJvm() {
    GatlingRun.run(GrpcSimulation.class, Map.of("levels", "2", "ramp", "0", "hold", "3"));
  }

  @Test
  void aFixedRateHoldsWithinOnePercentOnAFastServer() {
    // the warm-up's calls (class loading, connecting: seconds on a loaded machine) are recorded apart
    GatlingRun run = GatlingRun.run(GrpcSimulation.class, Map.of("rate", "100", "ramp", "0", "hold", "4", "warmup", "2"));

    assertEquals(0, run.exitCode, run.toString());
    JsonNode say = run.request("Say");
    assertEquals(400, say.get("count").asDouble(), 4, "100 calls/s for 4 s: " + say);
    assertEquals(100, say.get("targetRate").asDouble(), 1, say.toString());
    // the actual sends' spread jitters with a busy machine's timers (and so does `late`, which flags a
    // run past 1 % of its calls: a machine running other builds gets there at this rate already)
    assertEquals(100, say.get("achievedRate").asDouble(), 5, say.toString());
    assertEquals(say.get("count").asLong(), say.get("intended").get("count").asLong());
    assertTrue(say.get("intended").get("p50").asLong() >= say.get("p50").asLong(),
        "never measured from later than the actual send: " + say);
  }

  @Test
  void theRunsPageShowsServiceAndResponseTimeSideBySide(@TempDir Path dir) throws Exception {
    GatlingRun run = GatlingRun.run(GrpcSimulation.class, Map.of("rate", "50", "ramp", "0", "hold", "2"));

    Path page = run.runFolder.resolve(RunEnd.PAGE);
    String dom = Chromium.dumpDom(page, dir);
    assertFalse(dom.contains("data-errors"), "no script error");
    assertTrue(dom.contains("actual send (service time)") && dom.contains("intended send (response time)"), dom);
    assertTrue(Files.readString(page).contains("\"achievedRate\""), "the page's data has the rate figures");
  }

  @Test
  void pacedUsersCallEachSlotOfTheScheduleOnce() {
    GatlingRun run = GatlingRun.run(GrpcSimulation.class,
        Map.of("rate", "100", "ramp", "0", "hold", "3", "warmup", "2", "pacing", "paced", "pool", "100"));

    assertEquals(0, run.exitCode, run.toString());
    JsonNode say = run.request("Say");
    assertEquals(300, say.get("count").asLong(), "each slot of the schedule called once: " + say);
    // a slow reply holds a paced user: on a busy machine its pool falls a little behind
    assertEquals(100, say.get("achievedRate").asDouble(), 5, say.toString());
    assertEquals(300, say.get("intended").get("count").asLong(), say.toString());
  }

  @Test
  void anInjectorTooSlowForItsRateIsReportedAsSuch() {
    // each call holds an event loop 5 ms: 2 cores' loops send at most ~400 calls/s of the 600 scheduled
    GatlingRun run = GatlingRun.run(SlowInjectorSimulation.class, Map.of("rate", "600", "ramp", "0", "hold", "3"));

    JsonNode say = run.request("Say");
    assertFalse(say.get("rateKept").asBoolean(), say.toString());
    assertTrue(say.get("rateWarning").asText().startsWith("THE INJECTOR DID NOT KEEP THE RATE"), say.toString());
    assertTrue(say.get("late").asLong() > say.get("count").asLong() / 10, "most calls sent late: " + say);
    // Gatling's event loops also run the gRPC client here, so the service time suffers too, but less
    assertTrue(say.get("intended").get("p50").asLong() > say.get("p50").asLong(),
        "the lateness adds to the response time: " + say);
  }

  @Test
  void aServerStallHidesFromTheClosedModelButNotFromAFixedRate() throws Exception {
    // every 3 s the server holds its replies for 1 s, in both runs
    GatlingRun closed = GatlingRun.run(GrpcSimulation.class,
        Map.of("levels", "2", "ramp", "0", "hold", "6", "warmup", "1", "stall", "1s/3s"));
    GatlingRun paced = GatlingRun.run(GrpcSimulation.class,
        Map.of("rate", "100", "ramp", "0", "hold", "6", "warmup", "1", "stall", "1s/3s"));

    JsonNode c = closed.request("Say"), p = paced.request("Say");
    // 2 users wait out each stall with one call each: a few slow calls among hundreds or thousands
    assertTrue(c.get("p99").asLong() < 500_000, "the closed model's p99 hides the stall: " + c);
    // at a fixed rate a third of the calls are due during a stall and wait up to its 1 s
    JsonNode intended = p.get("intended");
    assertTrue(intended.get("p99").asLong() > 700_000, "the intended-time p99 shows the stall: " + p);
    assertTrue(intended.get("p999").asLong() > 800_000 && intended.get("p999").asLong() < 3_000_000,
        "p99.9 of the order of the 1 s pause: " + p);
    assertEquals(100, p.get("achievedRate").asDouble(), 5, "the injector kept sending through the stalls: " + p);
    assertEquals("open", new ObjectMapper().readTree(paced.runFolder.resolve(RunEnd.RUN_FILE).toFile()).path("settings").path("pacing").asText(),
        "the default model: one user per call, which sends on time whatever the replies do (paced users went late: BENCHMARKS.md)");
    assertTrue(c.get("p50").asLong() < 100_000, "the closed model's service time stays low: " + c);
  }

  @Test
  void twoInjectorsEachSendHalfTheRateAndTheirMergeTheWhole(@TempDir Path dir) throws Exception {
    Map<String, String> rate = Map.of("rate", "100", "ramp", "0", "hold", "3", "warmup", "1", "injectors", "2");
    GatlingRun first = GatlingRun.run(GrpcSimulation.class, with(rate, "injector", "0"));
    GatlingRun second = GatlingRun.run(GrpcSimulation.class, with(rate, "injector", "1"));

    for (GatlingRun run : List.of(first, second)) {
      JsonNode say = run.request("Say");
      assertEquals(150, say.get("count").asDouble(), 2, "half of 100 calls/s for 3 s: " + say);
      assertEquals(50, say.get("targetRate").asDouble(), 1, say.toString());
    }
    Properties merge = new Properties();
    merge.setProperty("runs", first.runFolder + "," + second.runFolder);
    merge.setProperty("out", dir.resolve("merged").toString());
    ByteArrayOutputStream console = new ByteArrayOutputStream();
    Merge.execute(merge, new PrintStream(console, true));
    JsonNode merged = new ObjectMapper().readTree(dir.resolve("merged").resolve(LatencyRecord.SUMMARY_FILE).toFile());
    JsonNode say = merged.path("requests").path("Say"), a = first.request("Say"), b = second.request("Say");
    assertEquals(a.get("count").asLong() + b.get("count").asLong(), say.path("count").asLong(), "together they sent the configured rate: " + merged);
    assertFalse(console.toString().contains("not merged"), console.toString());

    Histogram everyCall = new Histogram(3);
    for (GatlingRun run : List.of(first, second)) {
      RunData.read(run.runFolder).intendedIntervals("Say").forEach(everyCall::add);
    }
    JsonNode intended = say.path("intended");
    assertEquals(a.get("intended").get("count").asLong() + b.get("intended").get("count").asLong(), everyCall.getTotalCount(),
        "each run's intended-time log holds every call of its record");
    Map<String, Double> percentiles = Map.of("p50", 50.0, "p90", 90.0, "p99", 99.0, "p999", 99.9, "p9999", 99.99);
    percentiles.forEach((p, rank) ->
        assertEquals(everyCall.getValueAtPercentile(rank), intended.path(p).asLong(), p + " from the intended send: " + say));
    assertEquals(everyCall.getMaxValue(), intended.path("max").asLong());
    assertEquals(a.get("late").asLong() + b.get("late").asLong(), say.path("late").asLong(), "late sends add up");
    assertEquals(100, say.path("targetRate").asDouble(), 2, "the halves' schedules make the whole rate: " + say);
    assertEquals(a.get("achievedRate").asDouble() + b.get("achievedRate").asDouble(), say.path("achievedRate").asDouble(), 0.11);
    assertEquals(LatencyRecord.rateWarning(everyCall.getTotalCount(), say.path("late").asLong(), say.path("targetRate").asDouble(),
        say.path("achievedRate").asDouble()) == null, say.path("rateKept").asBoolean(), "judged on the merged figures: " + say);
    assertEquals(everyCall, RunData.read(dir.resolve("merged")).intendedIntervals("Say").stream()
        .collect(() -> new Histogram(3), Histogram::add, Histogram::add), "the merged intended-time log holds every value");
    assertTrue(RunData.read(dir.resolve("merged")).rate("Say").isPresent(), "the merged page shows the intended columns");
  }

  private static Map<String, String> with(Map<String, String> properties, String key, String value) {
    Map<String, String> all = new HashMap<>(properties);
    all.put(key, value);
    return all;
  }
}
