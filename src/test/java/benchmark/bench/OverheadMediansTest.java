package benchmark.bench;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** -Drepeats: the alternated runs of one level come out as medians, with the spread of the ratio. */
class OverheadMediansTest {

  private static Overhead.Row run(double bare, double gatling, double gatlingCpu) {
    return new Overhead.Row("thrift", 1000, "per-user", bare, gatling, gatling / bare, 100, 200, 1000, 2000, 70, gatlingCpu, 0, 0, null);
  }

  @Test
  void threeAlternatedRunsGiveTheMedianOfEachFigureAndTheLowestAndHighestRatio() {
    List<Overhead.Row> rows =
        Overhead.medians(List.of(List.of(run(1000, 500, 250)), List.of(run(1000, 700, 230)), List.of(run(1000, 600, 240))));

    Overhead.Row row = rows.get(0);
    assertEquals(0.6, row.ratio(), 1e-9);
    assertEquals(0.5, row.ratioMin(), 1e-9);
    assertEquals(0.7, row.ratioMax(), 1e-9);
    assertEquals(240, row.gatlingCpuPerCall(), 1e-9);
    assertEquals(3, row.runs());
    assertTrue(
        Overhead.markdown(rows, Duration.ofSeconds(5), Duration.ofSeconds(20)).contains("**0.60** (0.50–0.70, median of 3)"),
        Overhead.markdown(rows, Duration.ofSeconds(5), Duration.ofSeconds(20)));
  }

  @Test
  void aRepeatCountBelowOneIsRefusedWithItsName() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Overhead.repeats("0"));
    assertTrue(e.getMessage().contains("-Drepeats=0"), e.getMessage());
  }
}
