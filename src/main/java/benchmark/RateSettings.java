package benchmark;

import protocols.core.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * Rate mode: {@code -Drate=20000} (calls per second) or {@code -Drates=5000,10000,20000}, each step
 * reached by a linear ramp of {@code -Dramp} and held for {@code -Dhold} (the first one also for
 * {@code -Dwarmup}). Without either property the benchmark runs the closed staircase of {@code -Dlevels}.
 *
 * <p>It is also the schedule: the n-th call's intended send time follows from the steps alone, as
 * Gatling's open injection spaces its users ({@code rampUsersPerSec}, {@code constantUsersPerSec}).
 */
public record RateSettings(List<Integer> rates, Duration ramp, Duration hold, Duration warmup, double share) {

  public RateSettings {
    rates = List.copyOf(rates);
    if (!(share > 0 && share <= 1)) {
      throw new IllegalArgumentException("rate share " + share + ": expected a fraction above 0, at most 1");
    }
  }

  /** The whole rate, on one injector. */
  public RateSettings(List<Integer> rates, Duration ramp, Duration hold, Duration warmup) {
    this(rates, ramp, hold, warmup, 1);
  }

  /**
   * Injector i's part of the schedule ({@code -Dinjectors=N -Dinjector=i}): every step at its share of
   * the rate ({@link Injectors#shareOfRate}), so that N injectors together send the configured rates.
   */
  public RateSettings sharedBy(Injectors injectors) {
    return new RateSettings(rates, ramp, hold, warmup, injectors.shareOfRate(1));
  }

  public static RateSettings from(Properties properties, LoadSettings load) {
    return new RateSettings(parseRates(properties), load.ramp(), load.hold(), load.warmup());
  }

  /** {@code -Drate} or {@code -Drates} as steps (calls/s); empty when neither is set. */
  public static List<Integer> parseRates(Properties properties) {
    String rate = properties.getProperty("rate");
    String rates = properties.getProperty("rates");
    if (rate != null && rates != null) {
      throw new IllegalArgumentException("-Drate=" + rate + " and -Drates=" + rates + ": expected one of them, not both");
    }
    return rate != null ? parse(rate, "-Drate") : rates != null ? parse(rates, "-Drates") : List.of();
  }

  /** Whether the run is paced by a rate; otherwise it is the closed staircase. */
  public boolean paced() {
    return !rates.isEmpty();
  }

  private static List<Integer> parse(String text, String what) {
    String expected = ": expected comma-separated positive integers (calls per second), for example 5000,10000,20000";
    if (text.isBlank()) {
      throw new IllegalArgumentException(what + "=" + text + expected);
    }
    List<Integer> steps = new ArrayList<>();
    for (String part : text.split(",")) {
      try {
        int r = Integer.parseInt(part.trim());
        if (r < 1) {
          throw new NumberFormatException();
        }
        steps.add(r);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(what + "=" + text + expected);
      }
    }
    return steps;
  }

  /** A stretch of the schedule: the rate goes linearly from {@code from} to {@code to} over {@code duration}. */
  public record Segment(double from, double to, Duration duration) {
    double calls() {
      return (from + to) / 2 * duration.toNanos() / 1e9;
    }

    /** When, from this segment's start (s), the {@code k}-th of its calls is due: the inverse of its call count. */
    double secondsOf(double k) {
      double d = duration.toNanos() / 1e9;
      if (from == to) {
        return k / from;
      }
      double slope = (to - from) / d;
      return (-from + Math.sqrt(from * from + 2 * slope * k)) / slope;
    }
  }

  /** Ramps and holds, in order; the first hold includes the warm-up. */
  public List<Segment> segments() {
    List<Segment> segments = new ArrayList<>();
    double previous = 0;
    boolean first = true;
    for (int rate : rates) {
      double here = rate * share;
      if (!ramp.isZero()) {
        segments.add(new Segment(previous, here, ramp));
      }
      segments.add(new Segment(here, here, first ? hold.plus(warmup) : hold));
      previous = here;
      first = false;
    }
    return segments;
  }

  /** When the {@code n}-th call (from 0) is due, in ns from the schedule's start; past the end, at its end. */
  public long offsetNanos(long n) {
    double before = 0;
    long start = 0;
    for (Segment s : segments()) {
      double calls = s.calls();
      if (n < before + calls) {
        return start + (long) (s.secondsOf(n - before) * 1e9);
      }
      before += calls;
      start += s.duration().toNanos();
    }
    return start;
  }

  /** A pool sized from the timeout is capped here (each user is a session held for the whole run). */
  public static final int MAX_POOL = 100_000;

  /**
   * Paced users enough that none is still waiting for a reply when its next slot comes, even if every
   * reply took {@code longestReply} (the request's timeout): the largest step's rate (this injector's
   * share) times it; no more than the schedule's calls (the rest would find no slot), nor {@link #MAX_POOL}.
   */
  public int pacedPool(Duration longestReply) {
    int top = rates.stream().mapToInt(Integer::intValue).max().orElse(0);
    double users = Math.ceil(top * share * longestReply.toNanos() / 1e9);
    return (int) Math.max(1, Math.min(Math.min(MAX_POOL, totalCalls()), users));
  }

  /** How many calls the whole schedule makes. */
  public long totalCalls() {
    return Math.round(segments().stream().mapToDouble(Segment::calls).sum());
  }

  /** Each step's hold window from the schedule's start: [label, from ns, to ns]; the warm-up left out. */
  public List<Step> steps() {
    List<Step> steps = new ArrayList<>();
    long t = 0;
    boolean first = true;
    for (int rate : rates) {
      t += ramp.toNanos();
      long from = first ? t + warmup.toNanos() : t;
      t = from + hold.toNanos();
      steps.add(new Step(rate, from, t));
      first = false;
    }
    return steps;
  }

  public record Step(int rate, long fromNanos, long toNanos) {}

  /** Warm-up, then ramp and hold of every step. */
  public Duration totalDuration() {
    return warmup.plus(ramp.plus(hold).multipliedBy(rates.size()));
  }

  @Override
  public String toString() {
    return "rates " + rates + " calls/s" + (share == 1 ? "" : String.format(java.util.Locale.ROOT, " (%.4g of them here)", share))
        + " (open model, one call per user), ramp " + Durations.format(ramp)
        + ", hold " + Durations.format(hold) + (warmup.isZero() ? "" : ", warm-up " + Durations.format(warmup));
  }
}
