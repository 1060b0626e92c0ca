package benchmark.matrix;

import java.util.Comparator;
import java.util.List;

/**
 * A framework's highest sustainable rate under the SLO: the highest rate of its sweep whose steps up to
 * it were all kept ({@code sustainableRate}, 0 when not even the first was), and the lowest rate that
 * broke it and why (null when the sweep reached {@code -DmaxRate} unbroken).
 */
public record Knee(String framework, int sustainableRate, double achievedRate, long intendedAtSlo, Integer brokenRate, String why) {

  static Knee of(String framework, List<SweepStep> steps, String percentile) {
    List<SweepStep> byRate = steps.stream().filter(s -> s.framework().equals(framework)).sorted(Comparator.comparingInt(SweepStep::rate)).toList();
    SweepStep kept = null;
    SweepStep broken = null;
    for (SweepStep s : byRate) {
      if (!s.sustainable()) {
        broken = s;
        break;
      }
      kept = s;
    }
    return new Knee(framework, kept == null ? 0 : kept.rate(), kept == null ? 0 : kept.achievedRate(),
        kept == null ? 0 : kept.intended(percentile), broken == null ? null : broken.rate(), broken == null ? null : broken.verdict());
  }
}
