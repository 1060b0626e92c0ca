package benchmark.matrix;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import protocols.core.Durations;

/**
 * The matrix's saturation sweep: {@code -Dsaturation=p99:50ms} (a percentile of the response time from
 * the intended send time, and its limit). Per framework the rate starts at {@code -DstartRate}, is
 * multiplied by {@code -DrateFactor} at each step, up to {@code -DmaxRate}, each step one Gatling run
 * of {@code -Dwarmup} then {@code -Dhold}; it stops at the first step that breaks the SLO, fails calls
 * or is not kept by the injector, then bisects {@code -Drefine} times between the last step kept and
 * that one. Geometric steps because the frameworks' limits lie orders of magnitude apart: doubling
 * brackets any of them in a few runs, and the bisections narrow the bracket where it matters.
 */
public record Saturation(String percentile, Duration slo, int startRate, double factor, int maxRate, int refine) {

  /** The percentiles an SLO may name, as the record's fields. */
  static final List<String> PERCENTILES = List.of("p50", "p90", "p99", "p999");

  /** A step whose achieved rate falls below this share of its target was not kept by the injector. */
  static final double KEPT_SHARE = 0.99;

  public Saturation {
    if (startRate < 1 || maxRate < startRate) {
      throw new IllegalArgumentException("-DstartRate=" + startRate + " -DmaxRate=" + maxRate + ": expected 1 <= startRate <= maxRate (calls/s)");
    }
    if (!(factor > 1)) {
      throw new IllegalArgumentException("-DrateFactor=" + factor + ": expected a factor above 1, for example 2");
    }
    if (refine < 0) {
      throw new IllegalArgumentException("-Drefine=" + refine + ": expected 0 or more bisections");
    }
  }

  /** The sweep of {@code -Dsaturation}, or null when it is not set (the closed levels then). */
  static Saturation from(Properties p) {
    String text = p.getProperty("saturation");
    if (text == null || text.isBlank()) {
      return null;
    }
    String[] parts = text.trim().split(":");
    String expected = ": expected <percentile>:<limit>, a percentile of " + PERCENTILES + " of the response time from the intended send, for example p99:50ms";
    if (parts.length != 2 || !PERCENTILES.contains(parts[0].trim())) {
      throw new IllegalArgumentException("-Dsaturation=" + text + expected);
    }
    Duration slo;
    try {
      slo = Durations.parse(parts[1].trim(), "-Dsaturation");
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("-Dsaturation=" + text + expected);
    }
    if (slo.isZero()) {
      throw new IllegalArgumentException("-Dsaturation=" + text + ": a limit of 0 no call can meet" + expected);
    }
    return new Saturation(parts[0].trim(), slo,
        integer(p, "startRate", "1000"), number(p, "rateFactor", "2"), integer(p, "maxRate", "256000"), integer(p, "refine", "1"));
  }

  private static int integer(Properties p, String key, String defaultValue) {
    String text = p.getProperty(key, defaultValue).trim();
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-D" + key + "=" + text + ": expected a whole number");
    }
  }

  private static double number(Properties p, String key, String defaultValue) {
    String text = p.getProperty(key, defaultValue).trim();
    try {
      return Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-D" + key + "=" + text + ": expected a number, for example 2");
    }
  }

  /** The rising rates before any bisection: start, start × factor, … up to max. */
  List<Integer> rates() {
    List<Integer> rates = new java.util.ArrayList<>();
    for (double r = startRate; r <= maxRate; r *= factor) {
      int rate = (int) Math.round(r);
      if (rates.isEmpty() || rate > rates.get(rates.size() - 1)) {
        rates.add(rate);
      }
    }
    return rates;
  }

  /** Why a step is not sustainable, or null when it is. */
  String broken(SweepStep step) {
    String unkept = unkept(step);
    if (unkept != null) {
      return unkept;
    }
    long limit = slo.toNanos() / 1000;
    long value = step.intended(percentile);
    if (value > limit) {
      return String.format(Locale.ROOT, "intended %s %.1f ms > %s", percentile, value / 1000.0, Durations.format(slo));
    }
    return null;
  }

  /** Why a step failed or its rate was not kept (any SLO aside), or null. */
  static String unkept(SweepStep step) {
    if (!Cell.OK.equals(step.status())) {
      return step.reason() == null ? "failed" : step.reason();
    }
    if (step.achievedRate() < KEPT_SHARE * step.rate()) {
      return String.format(Locale.ROOT, "achieved %.0f of %d calls/s", step.achievedRate(), step.rate());
    }
    return null;
  }

  @Override
  public String toString() {
    return String.format(Locale.ROOT, "%s of the response time from the intended send <= %s; rates from %d calls/s, × %s per step, up to %d; %d bisection(s)",
        percentile, Durations.format(slo), startRate, factor, maxRate, refine);
  }
}
