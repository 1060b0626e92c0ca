package protocols.core.report;

import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.report.RpcAssertions.*;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import protocols.core.report.RpcAssertions.Assertion;

/** An exact assertion as run.json keeps it reads back as the same assertion: a merge checks it again. */
class AssertionRecordTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static Assertion roundTrip(Assertion a) throws Exception {
    return RpcAssertions.read(JSON.readTree(JSON.writeValueAsString(RpcAssertions.describe(a))));
  }

  @Test
  void everyMetricReadsBackWithItsScopeBoundAndWindow() throws Exception {
    for (Assertion a : List.of(
        new Assertion(allRequests().after(Duration.ofSeconds(5)), percentile(99.9).lt(Duration.ofMillis(50))),
        new Assertion(request("Say"), mean().lte(2.5)),
        new Assertion(request("Say"), max().gt(Duration.ofMillis(1))),
        new Assertion(allRequests(), min().gte(0)),
        new Assertion(allRequests(), failedPercent().lt(0.1)),
        new Assertion(allRequests(), failedCount().is(0)),
        new Assertion(allRequests(), throughput().gt(10_000)))) {
      Assertion back = roundTrip(a);

      assertEquals(a.describe(Duration.ZERO), back.describe(Duration.ZERO));
      assertEquals(a.scope(), back.scope());
      assertEquals(a.condition().bound(), back.condition().bound());
      assertEquals(a.condition().metric().kind(), back.condition().metric().kind());
    }
  }

  @Test
  void aPercentileReadsBackAsTheSameFigure() throws Exception {
    Assertion back = roundTrip(new Assertion(allRequests(), percentile(99.9).lt(50)));
    org.HdrHistogram.Histogram h = new org.HdrHistogram.Histogram(3);
    for (int v = 1; v <= 1000; v++) {
      h.recordValue(v);
    }
    Calls calls = new Calls(Stats.of(h, 0, 1), h);

    assertEquals(h.getValueAtPercentile(99.9), back.condition().metric().value().applyAsDouble(calls));
  }
}
