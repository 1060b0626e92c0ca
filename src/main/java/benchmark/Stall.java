package benchmark;

import protocols.core.Durations;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A server stall: every {@code every}, replies wait {@code pause} (the first {@code pause} of each
 * period holds every reply until it ends), as a garbage-collection pause or a lock would. What a
 * closed-model load test hides and a fixed rate reveals.
 */
public record Stall(Duration pause, Duration every) {

  public static final Stall NONE = new Stall(Duration.ZERO, Duration.ofSeconds(1));
  private static final Pattern FORM = Pattern.compile("([^/]+)/([^/]+)");

  public Stall {
    if (pause.compareTo(every) >= 0 || every.isZero()) {
      throw new IllegalArgumentException(
          Durations.format(pause) + "/" + Durations.format(every) + ": the pause must be shorter than its period");
    }
  }

  /** {@code 1s/10s}; {@code what} names the input in the error (for example "-Dstall"). */
  public static Stall parse(String text, String what) {
    if (text == null || text.isBlank() || text.trim().equals("0")) {
      return NONE;
    }
    String expected = ": expected <pause>/<period>, for example 1s/10s (every 10 s, replies wait 1 s)";
    Matcher m = FORM.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(what + "=" + text + expected);
    }
    try {
      return new Stall(Durations.parse(m.group(1), what + " pause"), Durations.parse(m.group(2), what + " period"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(what + "=" + text + expected + " (" + e.getMessage() + ")");
    }
  }

  public boolean none() {
    return pause.isZero();
  }

  /** How long a reply due {@code nanosSinceStart} after the stalls began must wait for the stall to end. */
  long waitNanos(long nanosSinceStart) {
    if (none()) {
      return 0;
    }
    long inPeriod = Math.floorMod(nanosSinceStart, every.toNanos());
    return Math.max(0, pause.toNanos() - inPeriod);
  }

  @Override
  public String toString() {
    return none() ? "none" : Durations.format(pause) + "/" + Durations.format(every);
  }
}
