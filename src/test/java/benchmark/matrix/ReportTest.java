package benchmark.matrix;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The report generator on results it is given (the matrix itself is tested in MatrixTest). */
class ReportTest {

  @TempDir Path dir;

  static Cell cell(String framework, int level, double throughput, long p99) {
    return new Cell(framework, level, Cell.OK, null, null, 1000, 1000, 0, throughput, 100, 900.0, 800, 1500, p99, p99 * 2, p99 * 3);
  }

  static Results results(Cell... cells) {
    return new Results(Results.FORMAT, "2026-11-30T10:00:00Z", Map.of("levels", "[100, 500]"), Map.of("cores", "2"), Map.of("Gatling", "3.15.1"), List.of(cells));
  }

  Path write(String name, Results results) throws Exception {
    Path folder = Files.createDirectories(dir.resolve(name));
    Path file = folder.resolve("results.json");
    new ObjectMapper().writeValue(file.toFile(), results);
    return file;
  }

  @Test
  void writesASelfContainedPageWithChartJsAndTheData() throws Exception {
    Path results = write("run", results(cell("grpc", 100, 20_000, 2_000), cell("rpcx", 100, 30_000, 1_500)));

    Report.write(results, null, "");

    String html = Files.readString(results.resolveSibling("report.html"));
    assertTrue(html.contains("Chart.js v4.4.1"), "Chart.js is inlined");
    assertFalse(html.contains("src=\"http"), "no script is loaded from the network");
    assertTrue(html.contains("\"framework\":\"rpcx\""), "the figures are embedded");
    assertTrue(html.contains("2016 seed") || html.contains("(2016 seed, 24 cores)"), "the seed is labelled");
  }

  @Test
  void writesTheSameFiguresAsCsv() throws Exception {
    Path results = write("run", results(cell("grpc", 100, 20_000, 2_000)));

    Report.write(results, null, "");

    List<String> csv = Files.readAllLines(results.resolveSibling("results.csv"));
    assertEquals("framework,level,status,count,ok,ko,success_rate_percent,throughput_per_s,min_us,mean_us,p50_us,p90_us,p99_us,p999_us,max_us,reason", csv.get(0));
    assertEquals("grpc,100,ok,1000,1000,0,100.000,20000.0,100,900.0,800,1500,2000,4000,6000,", csv.get(1));
  }

  @Test
  void theGatePassesWhenNothingRegressedBeyondItsThresholds() throws Exception {
    Path baseline = write("base", results(cell("grpc", 100, 20_000, 2_000)));
    Path current = write("now", results(cell("grpc", 100, 19_000, 2_200)));

    assertEquals(0, Report.write(current, baseline, "throughput:10,p99:20"));
  }

  @Test
  void theGateFailsWhenThroughputDropsBeyondItsThreshold() throws Exception {
    Path baseline = write("base", results(cell("grpc", 100, 20_000, 2_000)));
    Path current = write("now", results(cell("grpc", 100, 15_000, 2_000)));

    assertEquals(1, Report.write(current, baseline, "throughput:10"));
    assertTrue(Files.readString(current.resolveSibling("report.html")).contains("grpc at 100: throughput -25.0 %"));
  }

  @Test
  void theGateFailsWhenALatencyRisesBeyondItsThreshold() throws Exception {
    Path baseline = write("base", results(cell("rpcx", 500, 20_000, 2_000)));
    Path current = write("now", results(cell("rpcx", 500, 20_000, 3_000)));

    assertEquals(1, Report.write(current, baseline, "p99:20"));
  }

  @Test
  void aMissingBaselineIsOneClearError() throws Exception {
    Path current = write("now", results(cell("grpc", 100, 20_000, 2_000)));

    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> Report.write(current, dir.resolve("nope.json"), "p99:20"));

    assertTrue(error.getMessage().startsWith("-Dbaseline=" + dir.resolve("nope.json") + ": no such file"), error.getMessage());
  }

  @Test
  void aBaselineOfAnotherFormatIsOneClearError() throws Exception {
    Path current = write("now", results(cell("grpc", 100, 20_000, 2_000)));
    Path other = Files.writeString(dir.resolve("other.json"), "{\"format\": \"something-else/2\", \"cells\": []}");

    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> Report.write(current, other, "p99:20"));

    assertTrue(error.getMessage().contains("format 'something-else/2', expected 'gatling-rpc-matrix/1'"), error.getMessage());
  }

  @Test
  void aMalformedGateIsRefusedNamingTheExpectedForm() {
    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> Report.parseGate("speed:10"));

    assertTrue(error.getMessage().startsWith("-Dgate=speed:10: expected metric:percent pairs"), error.getMessage());
  }
}
