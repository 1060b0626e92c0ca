package protocols.core.report;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A baseline gate: "throughput:10,p99:20" fails when throughput drops more than 10 % or p99 rises more
 * than 20 % against the baseline. One implementation for the matrix (per framework and level) and for
 * any simulation (per request name).
 */
public final class Gate {

  /** Figures a gate can watch, and whether higher is better; the names of rpc-latency.json and results.json. */
  public static final Map<String, Boolean> METRICS;

  static {
    Map<String, Boolean> m = new LinkedHashMap<>();
    m.put("throughput", true);
    m.put("mean", false);
    m.put("p50", false);
    m.put("p90", false);
    m.put("p99", false);
    m.put("p999", false);
    m.put("max", false);
    METRICS = Collections.unmodifiableMap(m);
  }

  private final Map<String, Double> thresholds;

  private Gate(Map<String, Double> thresholds) {
    this.thresholds = Collections.unmodifiableMap(thresholds);
  }

  /** Parses {@code -Dgate}; blank is a gate that watches nothing. */
  public static Gate parse(String gate) {
    Map<String, Double> thresholds = new LinkedHashMap<>();
    if (gate == null || gate.isBlank()) {
      return new Gate(thresholds);
    }
    for (String part : gate.split(",")) {
      String[] kv = part.trim().split(":");
      if (kv.length != 2 || !METRICS.containsKey(kv[0].trim())) {
        throw new IllegalArgumentException("-Dgate=" + gate + ": expected metric:percent pairs such as throughput:10,p99:20; metrics: " + METRICS.keySet());
      }
      try {
        thresholds.put(kv[0].trim(), Double.parseDouble(kv[1].trim()));
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("-Dgate=" + gate + ": '" + kv[1] + "' is not a percentage");
      }
    }
    return new Gate(thresholds);
  }

  public Map<String, Double> thresholds() {
    return thresholds;
  }

  public boolean isEmpty() {
    return thresholds.isEmpty();
  }

  /** Change in percent from {@code base} to {@code now}, or NaN when either has no figure (or the base is 0). */
  public static double change(Map<String, Double> now, Map<String, Double> base, String metric) {
    Double n = now == null ? null : now.get(metric);
    Double b = base == null ? null : base.get(metric);
    if (n == null || b == null || b == 0) {
      return Double.NaN;
    }
    return 100.0 * (n - b) / b;
  }

  /** The gated figures of {@code what} that regressed past their thresholds, one readable line each. */
  public List<String> regressions(String what, Map<String, Double> now, Map<String, Double> base) {
    List<String> found = new ArrayList<>();
    for (Map.Entry<String, Double> t : thresholds.entrySet()) {
      double change = change(now, base, t.getKey());
      boolean higherIsBetter = METRICS.get(t.getKey());
      if (!Double.isNaN(change) && (higherIsBetter ? -change : change) > t.getValue()) {
        found.add(String.format(Locale.ROOT, "%s: %s %+.1f %% (limit %.1f %%)", what, t.getKey(), change, t.getValue()));
      }
    }
    return found;
  }
}
