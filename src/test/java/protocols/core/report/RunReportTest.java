package protocols.core.report;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.core.LatencyRecord;
import protocols.testkit.Chromium;
import protocols.testkit.GatlingRun;
import simulations.GrpcSimulation;

/** rpc-report.html of one short GrpcSimulation run (two staircase levels), with Gatling's report. */
class RunReportTest {

  static GatlingRun run;
  static JsonNode page;

  @TempDir Path dir;

  @BeforeAll
  static void runOnce() throws Exception {
    run = GatlingRun.run(GrpcSimulation.class, Map.of("levels", "5,20", "ramp", "1", "hold", "3"), true);
    assertEquals(0, run.exitCode, run.toString());
    page = pageData(run.runFolder.resolve(RunEnd.PAGE));
  }

  @Test
  void thePageFiguresEqualTheRecordsSummary() throws Exception {
    JsonNode summary = new ObjectMapper().readTree(run.runFolder.resolve(LatencyRecord.SUMMARY_FILE).toFile());
    for (String name : List.of("Say", "all")) {
      JsonNode expected = name.equals("all") ? summary.get("all") : summary.get("requests").get(name);
      JsonNode shown = request(name).get("exact");
      for (String figure : List.of("count", "ok", "ko", "throughput", "min", "mean", "p50", "p90", "p99", "p999", "p9999", "max")) {
        assertEquals(expected.get(figure).asDouble(), shown.get(figure).asDouble(), name + " " + figure);
      }
    }
  }

  @Test
  void thePageShowsGatlingsFiguresForTheSameCallsNextToTheExactOnes() {
    JsonNode say = request("Say");
    assertEquals(say.get("exact").get("count").asDouble(), say.get("gatling").get("count").asDouble(), "the same calls");
    assertTrue(say.get("gatling").has("p99"), "Gatling's p99 read from its index.html: " + say.get("gatling"));
    assertTrue(say.get("exactAtGatlingPercentiles").get("p99").asLong() > 0, "the exact p99 at Gatling's percentiles");
  }

  @Test
  void gatlingsIndexHtmlLinksToThePage() throws Exception {
    String index = Files.readString(run.runFolder.resolve("index.html"));
    assertTrue(index.contains("href=\"" + RunEnd.PAGE + "\""), "a link to " + RunEnd.PAGE);
    assertEquals(1, index.split("gatling-rpc-link", -1).length - 1, "added once");
  }

  @Test
  void eachStaircaseLevelHasItsOwnFiguresOverItsHoldWindow() {
    JsonNode levels = page.get("levels");
    assertEquals(2, levels.size(), levels.toString());
    assertEquals("5 users", levels.get(0).get("label").asText());
    assertEquals("20 users", levels.get(1).get("label").asText());
    long inLevels = levels.get(0).get("requests").get("Say").get("count").asLong() + levels.get(1).get("requests").get("Say").get("count").asLong();
    assertTrue(inLevels > 0 && inLevels < run.count("Say"), "the hold windows without the ramps: " + inLevels + " of " + run.count("Say"));
  }

  @Test
  void thePageDrawsItsChartsInHeadlessChromiumWithoutScriptErrors() throws Exception {
    String dom = Chromium.dumpDom(run.runFolder.resolve(RunEnd.PAGE), dir);

    assertTrue(dom.contains("data-charts-rendered=\"5\""), "distribution, throughput, latency, KO, levels: " + dom.substring(0, Math.min(300, dom.length())));
    assertFalse(dom.contains("data-errors"), "no script error");
    assertTrue(dom.contains("Why Gatling's figures differ"), "the explanation");
  }

  private static JsonNode request(String name) {
    for (JsonNode r : page.get("requests")) {
      if (r.get("name").asText().equals(name)) {
        return r;
      }
    }
    throw new AssertionError("no request " + name + " on the page");
  }

  /** The page's data: the JSON its script starts from. */
  static JsonNode pageData(Path html) throws Exception {
    String text = Files.readString(html);
    int start = text.indexOf("const DATA = ") + "const DATA = ".length();
    ObjectMapper json = new ObjectMapper();
    return json.readTree(json.getFactory().createParser(text.substring(start)));
  }
}
