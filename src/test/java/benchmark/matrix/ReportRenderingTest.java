package benchmark.matrix;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.testkit.Chromium;

/** The comparison report opened from disk in a real headless browser (Debian's chromium). */
class ReportRenderingTest {

  @TempDir Path dir;

  @Test
  void theReportDrawsItsSixChartsWithoutScriptErrors() throws Exception {
    Path base = Files.createDirectories(dir.resolve("base")).resolve("results.json");
    Path now = Files.createDirectories(dir.resolve("now")).resolve("results.json");
    ObjectMapper json = new ObjectMapper();
    json.writeValue(base.toFile(), ReportTest.results(ReportTest.cell("grpc", 100, 20_000, 2_000), ReportTest.cell("rpcx", 100, 30_000, 1_000)));
    json.writeValue(now.toFile(), ReportTest.results(
        ReportTest.cell("grpc", 100, 21_000, 1_900), ReportTest.cell("grpc", 500, 24_000, 9_000),
        ReportTest.cell("rpcx", 100, 25_000, 1_100), Cell.failed("rpcx", 500, "server did not start", null)));
    Report.write(now, base, "throughput:10");

    String dom = Chromium.dumpDom(now.resolveSibling("report.html"), dir);

    assertTrue(dom.contains("data-charts-rendered=\"6\""), "six charts drawn: " + dom.substring(0, Math.min(400, dom.length())));
    assertFalse(dom.contains("data-errors"), "no script error");
    assertTrue(dom.contains("failed: server did not start"), "the failed cell shows its reason");
  }
}
