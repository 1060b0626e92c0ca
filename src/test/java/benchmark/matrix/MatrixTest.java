package benchmark.matrix;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The matrix command on tiny levels and durations: real servers in their own JVMs, real Gatling runs. */
class MatrixTest {

  @TempDir Path out;

  private Properties tiny(String frameworks) {
    Properties p = new Properties();
    p.setProperty("frameworks", frameworks);
    p.setProperty("levels", "5");
    p.setProperty("warmup", "1");
    p.setProperty("hold", "3");
    p.setProperty("out", out.toString());
    return p;
  }

  @Test
  void everyFrameworkRunsAgainstItsServerInItsOwnJvmAndEveryCellIsReported() throws Exception {
    int exit = Matrix.execute(MatrixSettings.from(tiny("rpcx,grpc,thrift,dubbo,motan")));

    Results results = Report.read(out.resolve("results.json"), "results");
    assertEquals(5, results.cells().size());
    for (Cell cell : results.cells()) {
      assertTrue(cell.passed(), cell.framework() + ": " + cell.reason());
      assertTrue(cell.ok() > 0 && cell.ko() == 0, cell.framework() + " made calls, all OK");
      assertTrue(cell.p50() > 0 && cell.p50() <= cell.p99() && cell.p99() <= cell.max(), cell.framework() + " percentiles ordered");
      assertTrue(Files.exists(out.resolve(cell.report())), cell.framework() + "'s Gatling report");
    }
    assertEquals(0, exit);
    assertTrue(Files.exists(out.resolve("report.html")));
    assertTrue(Files.exists(out.resolve("results.csv")));
  }

  @Test
  void aCellOfTwoInjectorsRunsTheirSharesFromOneInstantAndReportsTheirMerge() throws Exception {
    Properties p = tiny("rpcx");
    p.setProperty("levels", "4");
    p.setProperty("injectors", "2");
    p.setProperty("startDelay", "25s"); // two fresh Gatling JVMs must be up before the shared instant

    int exit = Matrix.execute(MatrixSettings.from(p));

    Results results = Report.read(out.resolve("results.json"), "results");
    Cell cell = Report.find(results, "rpcx", 4);
    assertTrue(cell.passed(), cell.reason());
    assertTrue(cell.ok() > 0 && cell.ko() == 0, "calls made, all OK: " + cell);
    assertEquals(0, exit);
    Path level = out.resolve("rpcx").resolve("4");
    assertTrue(Files.exists(level.resolve("merged").resolve("rpc-latency.json")), "the cell's figures are the merge's");
    for (int i = 0; i < 2; i++) {
      assertTrue(Files.isDirectory(level.resolve("injector-" + i)), "injector " + i + " ran its share");
    }
  }

  @Test
  void aServerThatDoesNotStartFailsItsCellsWithTheReasonAndTheMatrixGoesOn() throws Exception {
    Properties p = tiny("grpc,rpcx");
    p.setProperty("serverArgs.grpc", "--no-such-option");

    int exit = Matrix.execute(MatrixSettings.from(p));

    Results results = Report.read(out.resolve("results.json"), "results");
    Cell grpc = Report.find(results, "grpc", 5);
    assertFalse(grpc.passed());
    assertTrue(grpc.reason().startsWith("server did not start: it exited with code"), grpc.reason());
    assertTrue(grpc.reason().contains("--no-such-option"), "the server's own words: " + grpc.reason());
    assertTrue(Report.find(results, "rpcx", 5).passed(), "the next framework still ran");
    assertEquals(1, exit, "the command says something failed");
  }
}
