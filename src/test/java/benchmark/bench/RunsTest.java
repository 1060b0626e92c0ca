package benchmark.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.testkit.SystemProperties;

/** How the bench commands sum up their alternating runs: median and spread. */
class RunsTest {

  @Test
  void theMedianOfAnOddCountIsTheMiddleRunAndTheSpreadItsExtremes() {
    Runs.Spread spread = Runs.of(List.of(0.91, 0.84, 0.80), Double::doubleValue);

    assertEquals(new Runs.Spread(0.84, 0.80, 0.91), spread);
    assertEquals("0.84 (0.80–0.91)", spread.format("%.2f"));
  }

  @Test
  void theMedianOfAnEvenCountIsTheMeanOfTheMiddleTwo() {
    assertEquals(1.5, Runs.of(List.of(4.0, 1.0, 2.0, 0.5), Double::doubleValue).median());
  }

  @Test
  void aSingleRunIsShownWithoutASpread() {
    assertEquals("25.6", Runs.of(List.of(25.6), Double::doubleValue).format("%.1f"));
  }

  @Test
  void aRunCountThatIsNotPositiveIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SystemProperties.with(Map.of("runs", "0"), Runs::count));

    assertTrue(e.getMessage().startsWith("-Druns=0: expected a positive number"), e.getMessage());
  }
}
