package protocols.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * Exact figures of a set of calls, latencies in microseconds: a request name over the whole run (as
 * rpc-latency.json states them) or a cut of its per-second intervals (a level, after a warm-up).
 */
public record Stats(
    long count, long ok, long ko, double throughput,
    long min, double mean, long p50, long p90, long p99, long p999, long p9999, long max) {

  /** The figures as rpc-latency.json holds them. */
  static Stats of(JsonNode n) {
    return new Stats(
        n.path("count").asLong(), n.path("ok").asLong(), n.path("ko").asLong(), n.path("throughput").asDouble(),
        n.path("min").asLong(), n.path("mean").asDouble(), n.path("p50").asLong(), n.path("p90").asLong(),
        n.path("p99").asLong(), n.path("p999").asLong(), n.path("p9999").asLong(), n.path("max").asLong());
  }

  /** Timed calls of {@code h} over {@code seconds}, of which {@code ko} failed. */
  static Stats of(Histogram h, long ko, double seconds) {
    long count = h.getTotalCount();
    boolean timed = count > 0;
    return new Stats(
        count, Math.max(0, count - ko), ko, seconds > 0 ? count / seconds : 0,
        timed ? h.getMinValue() : 0, timed ? h.getMean() : 0,
        h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
        h.getValueAtPercentile(99.9), h.getValueAtPercentile(99.99), timed ? h.getMaxValue() : 0);
  }

  /** The figures a {@link Gate} can watch, by its metric names. */
  public Map<String, Double> gated() {
    Map<String, Double> m = new LinkedHashMap<>();
    m.put("throughput", throughput);
    m.put("mean", mean);
    m.put("p50", (double) p50);
    m.put("p90", (double) p90);
    m.put("p99", (double) p99);
    m.put("p999", (double) p999);
    m.put("max", (double) max);
    return m;
  }

  public double failedPercent() {
    return count == 0 ? 0 : 100.0 * ko / count;
  }
}
