package protocols.core.report;

import org.HdrHistogram.Histogram;

/** Some calls of a run: their exact figures, and their histogram for any other percentile (µs). */
public record Calls(Stats stats, Histogram histogram) {

  public double percentile(double p) {
    return histogram.getValueAtPercentile(p);
  }

  public double mean() {
    return stats.mean();
  }

  public double max() {
    return stats.max();
  }

  public double min() {
    return stats.min();
  }
}
