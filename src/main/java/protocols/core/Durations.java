package protocols.core;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations as people type them: {@code 30} (seconds), {@code 30s}, {@code 2m}, {@code 500ms}. */
public final class Durations {

  private static final Pattern FORM = Pattern.compile("(\\d+)\\s*(ms|s|m|h)?");

  private Durations() {}

  /** Parses {@code text}; {@code what} names the input in the error (for example "-Dhold"). */
  public static Duration parse(String text, String what) {
    Matcher m = FORM.matcher(text == null ? "" : text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          what + "=" + text + ": expected a non-negative duration: seconds (30) or with a unit (500ms, 30s, 2m, 1h)");
    }
    long amount = Long.parseLong(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    return switch (unit) {
      case "ms" -> Duration.ofMillis(amount);
      case "m" -> Duration.ofMinutes(amount);
      case "h" -> Duration.ofHours(amount);
      default -> Duration.ofSeconds(amount);
    };
  }

  /** "1m30s", "250ms": how a duration reads in logs and reports. */
  public static String format(Duration d) {
    if (d.toMillis() % 1000 != 0) {
      return d.toMillis() + "ms";
    }
    long s = d.toSeconds();
    return s >= 60 && s % 60 == 0 ? s / 60 + "m" : s >= 60 ? s / 60 + "m" + s % 60 + "s" : s + "s";
  }
}
