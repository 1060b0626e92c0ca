package benchmark.matrix;

/**
 * One rate of a framework's saturation sweep: the response time from the intended send time and the
 * service time from the actual send (µs, warm-up excluded), the rate achieved, and whether the step was
 * sustainable under the SLO ({@code verdict} says why not).
 */
public record SweepStep(
    String framework,
    int rate,
    String status,
    String reason,
    String report,
    long count,
    long ko,
    long late,
    double achievedRate,
    long serviceP50,
    long serviceP99,
    long intendedP50,
    long intendedP90,
    long intendedP99,
    long intendedP999,
    boolean sustainable,
    String verdict) {

  static SweepStep failed(String framework, int rate, String reason, String report) {
    return new SweepStep(framework, rate, Cell.FAILED, reason, report, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, false, reason);
  }

  /** The intended-time figure of a percentile of {@link Saturation#PERCENTILES}. */
  long intended(String percentile) {
    return switch (percentile) {
      case "p50" -> intendedP50;
      case "p90" -> intendedP90;
      case "p99" -> intendedP99;
      case "p999" -> intendedP999;
      default -> throw new IllegalArgumentException(percentile);
    };
  }

  /** The same figures, judged. */
  SweepStep judged(String verdict) {
    return new SweepStep(framework, rate, status, reason, report, count, ko, late, achievedRate, serviceP50, serviceP99,
        intendedP50, intendedP90, intendedP99, intendedP999, verdict == null, verdict);
  }
}
