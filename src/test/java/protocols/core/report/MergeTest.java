package protocols.core.report;

import static org.junit.jupiter.api.Assertions.*;

import benchmark.grpc.GrpcBenchmarkServer;
import benchmark.matrix.Jvms;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import protocols.core.LatencyRecord;
import protocols.testkit.Chromium;

/**
 * Three injector JVMs share one load (7 users: 3 + 2 + 2) against one gRPC server, started at one
 * instant; their records merged are one run of all their calls.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MergeTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String SAY = "Say";

  @TempDir static Path dir;
  private GrpcBenchmarkServer server;
  private final List<Path> runs = new ArrayList<>();
  private Path merged;
  private int status;
  private String console;

  @BeforeAll
  void threeInjectorsRunTheirSharesAndTheirRecordsAreMerged() throws Exception {
    server = GrpcBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO);
    Jvms jvms = new Jvms();
    // time for three JVMs to start and build the simulation on a loaded 2-core machine; each then waits
    Instant startAt = Instant.now().plusSeconds(40);
    List<Process> injectors = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      Path results = dir.resolve("results").resolve("injector-" + i);
      Files.createDirectories(results);
      injectors.add(jvms.startGatling("256m", List.of(
              "-Dtarget=127.0.0.1:" + server.port(), "-Dlevels=7", "-Dramp=0", "-Dhold=3", "-Dconnections=2",
              "-Dinjectors=3", "-Dinjector=" + i, "-DstartAt=" + startAt),
          "simulations.GrpcSimulation", results, dir.resolve("injector-" + i + ".log")));
    }
    for (int i = 0; i < 3; i++) {
      assertTrue(Jvms.await(injectors.get(i), Duration.ofSeconds(120)), "injector " + i + " ended by itself");
      assertEquals(0, injectors.get(i).exitValue(), "injector " + i + Jvms.tail(dir.resolve("injector-" + i + ".log")));
      try (var folders = Files.list(dir.resolve("results").resolve("injector-" + i))) {
        runs.add(folders.filter(Files::isDirectory).findFirst().orElseThrow());
      }
    }
    merged = dir.resolve("merged");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    status = Merge.execute(props("runs", dir.resolve("results").toString(), "out", merged.toString()), new PrintStream(out, true));
    console = out.toString();
  }

  @AfterAll
  void stopServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private static Properties props(String... keyValues) {
    Properties p = new Properties();
    for (int i = 0; i < keyValues.length; i += 2) {
      p.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return p;
  }

  private static JsonNode json(Path file) throws Exception {
    return JSON.readTree(file.toFile());
  }

  @Test
  void eachInjectorRanItsShareAndSaysWhichPartItWas() throws Exception {
    int users = 0;
    for (int i = 0; i < 3; i++) {
      JsonNode run = json(runs.get(i).resolve(RunEnd.RUN_FILE));
      assertEquals(i, run.get("injector").asInt());
      assertEquals(3, run.get("injectors").asInt());
      assertEquals("simulations.GrpcSimulation", run.get("simulation").asText());
      users += run.get("shares").get(0).asInt();
      assertEquals(i == 0 ? 3 : 2, run.get("shares").get(0).asInt(), "shares differ by one user at most");
    }
    assertEquals(7, users, "the shares add up to the level");
  }

  @Test
  void mergedCountsAreTheSumOfTheInjectorsCounts() throws Exception {
    long count = 0, ok = 0;
    for (Path run : runs) {
      JsonNode say = json(run.resolve(LatencyRecord.SUMMARY_FILE)).get("requests").get(SAY);
      assertTrue(say.get("count").asLong() > 0, run + " made calls");
      count += say.get("count").asLong();
      ok += say.get("ok").asLong();
    }
    JsonNode say = json(merged.resolve(LatencyRecord.SUMMARY_FILE)).get("requests").get(SAY);
    assertEquals(count, say.get("count").asLong());
    assertEquals(ok, say.get("ok").asLong());
    assertEquals(count, json(merged.resolve(LatencyRecord.SUMMARY_FILE)).get("all").get("count").asLong());
  }

  @Test
  void startedAtOneInstantTheInjectorsRatesAddUp() throws Exception {
    double sum = 0;
    for (Path run : runs) {
      sum += json(run.resolve(LatencyRecord.SUMMARY_FILE)).get("requests").get(SAY).get("throughput").asDouble();
    }
    assertEquals(sum, json(merged.resolve(LatencyRecord.SUMMARY_FILE)).get("requests").get(SAY).get("throughput").asDouble(), 0.051);
  }

  @Test
  void mergedPercentilesAreExactlyThoseOfOneHistogramOfAllTheirCalls() throws Exception {
    Histogram everyCall = new Histogram(3);
    for (Path run : runs) {
      everyCall.add(RunData.read(run).histogram(SAY));
    }
    JsonNode say = json(merged.resolve(LatencyRecord.SUMMARY_FILE)).get("requests").get(SAY);
    assertEquals(everyCall.getValueAtPercentile(50), say.get("p50").asLong());
    assertEquals(everyCall.getValueAtPercentile(90), say.get("p90").asLong());
    assertEquals(everyCall.getValueAtPercentile(99), say.get("p99").asLong());
    assertEquals(everyCall.getValueAtPercentile(99.9), say.get("p999").asLong());
    assertEquals(everyCall.getValueAtPercentile(99.99), say.get("p9999").asLong());
    assertEquals(everyCall.getMinValue(), say.get("min").asLong());
    assertEquals(everyCall.getMaxValue(), say.get("max").asLong());
    assertEquals(everyCall, RunData.read(merged).histogram(SAY), "the merged log holds every recorded value");
  }

  @Test
  void perSecondThroughputAddsUpAndTheInjectorsRanTheSameSeconds() throws Exception {
    Map<Long, Long> expected = new TreeMap<>();
    for (Path run : runs) {
      for (Histogram h : RunData.read(run).intervals(SAY)) {
        expected.merge(Math.floorDiv(h.getEndTimeStamp() - 500, 1000), h.getTotalCount(), Long::sum);
      }
    }
    Map<Long, Long> actual = new TreeMap<>();
    for (RunData.Second s : RunData.read(merged).timeline()) {
      assertEquals(1000, s.endMillis() - s.startMillis(), "one whole second");
      actual.put(s.startMillis() / 1000, s.histogram().getTotalCount());
    }
    assertEquals(expected, actual);
    // started at one instant, three injectors' 3-second holds cover about 3 seconds, not 9
    assertTrue(actual.size() <= 6, "seconds of the merged run: " + actual.keySet());
  }

  @Test
  void theMergedPageRendersAndTheMergeExitsWithoutFailure() throws Exception {
    assertEquals(0, status, console);
    assertTrue(console.contains("Merged 3 injectors' runs"), console);
    String dom = Chromium.dumpDom(merged.resolve(RunEnd.PAGE), dir);
    assertTrue(dom.contains("data-charts-rendered=\"5\""), dom.substring(0, Math.min(300, dom.length())));
    assertFalse(dom.contains("data-errors"), "no script error");
  }

  @Test
  void aMissingInjectorIsRefused() {
    String message = refusal("runs", runs.get(0) + "," + runs.get(2));
    assertTrue(message.startsWith("missing injector [1] of 3"), message);
  }

  @Test
  void anInjectorGivenTwiceIsRefusedAsOverlapping() {
    String message = refusal("runs", runs.get(0) + "," + runs.get(1) + "," + runs.get(1) + "," + runs.get(2));
    assertTrue(message.startsWith("overlapping indexes: injector 1"), message);
  }

  @Test
  void runsOfDifferentSettingsAreRefused() throws Exception {
    Path other = dir.resolve("other");
    Files.createDirectories(other);
    for (String file : List.of(RunEnd.RUN_FILE, LatencyRecord.SUMMARY_FILE, LatencyRecord.LOG_FILE)) {
      Files.copy(runs.get(2).resolve(file), other.resolve(file));
    }
    Path runJson = other.resolve(RunEnd.RUN_FILE);
    Files.writeString(runJson, Files.readString(runJson).replace("\"hold\" : \"3s\"", "\"hold\" : \"4s\""));

    String message = refusal("runs", runs.get(0) + "," + runs.get(1) + "," + other);
    assertTrue(message.startsWith("runs of different settings"), message);
    assertTrue(message.contains("4s"), message);
  }

  @Test
  void aFolderWithoutAnInjectorsRunIsRefusedByName() throws Exception {
    String message = refusal("runs", dir.resolve("nothing-here").toString());
    assertTrue(message.contains("nothing-here is not a folder"), message);
  }

  @Test
  void theGateComparesTheMergedFiguresWithABaselineAndSetsTheExitStatus() throws Exception {
    String before = System.getProperty("baseline");
    System.setProperty("baseline", merged.toString());
    System.setProperty("gate", "throughput:10");
    try {
      int again = Merge.execute(props("runs", dir.resolve("results").toString(), "out", dir.resolve("again").toString()), new PrintStream(new ByteArrayOutputStream()));
      assertEquals(0, again, "the same figures do not regress");
      Path low = dir.resolve("low");
      Files.createDirectories(low);
      JsonNode summary = json(merged.resolve(LatencyRecord.SUMMARY_FILE));
      ((com.fasterxml.jackson.databind.node.ObjectNode) summary.get("requests").get(SAY)).put("throughput", summary.get("requests").get(SAY).get("throughput").asDouble() * 2);
      JSON.writeValue(low.resolve(LatencyRecord.SUMMARY_FILE).toFile(), summary);
      System.setProperty("baseline", low.toString());
      int regressed = Merge.execute(props("runs", dir.resolve("results").toString(), "out", dir.resolve("third").toString()), new PrintStream(new ByteArrayOutputStream()));
      assertEquals(RunEnd.REGRESSED, regressed, "half the baseline's throughput fails the gate");
    } finally {
      System.clearProperty("gate");
      if (before == null) {
        System.clearProperty("baseline");
      } else {
        System.setProperty("baseline", before);
      }
    }
  }

  private String refusal(String... keyValues) {
    Properties p = props(keyValues);
    p.setProperty("out", dir.resolve("refused").toString());
    return assertThrows(IllegalArgumentException.class, () -> Merge.execute(p, new PrintStream(new ByteArrayOutputStream()))).getMessage();
  }
}
