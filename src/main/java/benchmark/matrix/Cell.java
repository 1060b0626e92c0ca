package benchmark.matrix;

/**
 * One framework at one concurrency level: the measured figures (microseconds, warm-up excluded) or why
 * there are none. {@code report} is the Gatling report's path relative to the results folder.
 */
public record Cell(
    String framework,
    int level,
    String status,
    String reason,
    String report,
    long count,
    long ok,
    long ko,
    double throughput,
    long min,
    double mean,
    long p50,
    long p90,
    long p99,
    long p999,
    long max) {

  public static final String OK = "ok";
  public static final String FAILED = "failed";

  public static Cell failed(String framework, int level, String reason, String report) {
    return new Cell(framework, level, FAILED, reason, report, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
  }

  public boolean passed() {
    return OK.equals(status);
  }

  /** OK calls over all calls, in percent; 0 when nothing ran. */
  public double successRate() {
    return count == 0 ? 0 : 100.0 * ok / count;
  }
}
