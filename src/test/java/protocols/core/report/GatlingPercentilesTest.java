package protocols.core.report;

import static org.junit.jupiter.api.Assertions.*;

import io.gatling.charts.stats.GeneralStats;
import io.gatling.charts.stats.buffers.GeneralStatsBuffer;
import java.util.Random;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Why Gatling's report differs from the exact record, shown with Gatling's own statistics buffer
 * (gatling-charts 3.15.1's GeneralStatsBuffer: whole milliseconds into one t-digest, compression 100).
 */
class GatlingPercentilesTest {

  @Test
  void gatlingsP99OfABimodalDistributionIsAnInterpolationFarFromTheRecordedCalls() {
    GeneralStatsBuffer gatling = new GeneralStatsBuffer(100);
    Histogram exact = new Histogram(3);
    Random random = new Random(7);
    for (int i = 0; i < 1_000_000; i++) {
      // 99 % of calls take 1-3 ms, 1 % take 400-999 ms: the exact p99 is a fast call
      int millis = random.nextDouble() < 0.99 ? 1 + random.nextInt(3) : 400 + random.nextInt(600);
      gatling.update(millis);
      exact.recordValue(millis);
    }
    GeneralStats stats = gatling.stats().get();
    int gatlingP99 = (Integer) stats.percentile().apply(99.0);

    assertTrue(exact.getValueAtPercentile(99) <= 3, "exact p99: " + exact.getValueAtPercentile(99));
    assertTrue(gatlingP99 > 100, "Gatling's p99: " + gatlingP99 + " ms");
    assertEquals(exact.getTotalCount(), stats.count(), "the counts agree");
    assertEquals(exact.getMaxValue(), stats.max(), "the max agrees");
  }
}
