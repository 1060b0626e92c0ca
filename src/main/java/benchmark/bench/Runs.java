package benchmark.bench;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Repeated runs of one comparison: {@code -Druns} of them, alternating (A, B, A, B…) so that a change of
 * the machine's load falls on both sides, summed up by their median and their spread (lowest and highest).
 */
final class Runs {

  /** The median and the range of one figure over the runs. */
  record Spread(double median, double min, double max) {
    /** "0.84 (0.80–0.91)", or the value alone after a single run. */
    String format(String pattern) {
      String median = String.format(Locale.ROOT, pattern, this.median);
      return min == max ? median : median + String.format(Locale.ROOT, " (" + pattern + "–" + pattern + ")", min, max);
    }
  }

  private Runs() {}

  /** {@code -Druns}, default 3. */
  static int count() {
    String text = System.getProperty("runs", "3").trim();
    try {
      int runs = Integer.parseInt(text);
      if (runs > 0) {
        return runs;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("-Druns=" + text + ": expected a positive number of alternating runs, for example 3");
  }

  /** The median (the mean of the middle two for an even count), lowest and highest of {@code figure} over {@code runs}. */
  static <T> Spread of(List<T> runs, ToDoubleFunction<T> figure) {
    if (runs.isEmpty()) {
      return new Spread(0, 0, 0);
    }
    double[] values = runs.stream().mapToDouble(figure).sorted().toArray();
    int middle = values.length / 2;
    double median = values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    return new Spread(median, values[0], values[values.length - 1]);
  }
}
