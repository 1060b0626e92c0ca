package benchmark;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Properties;

/**
 * One injector's part of a load that several injectors make together: {@code -Dinjectors=N
 * -Dinjector=i} (0-based) runs share i of every level, and {@code -DstartAt=<ISO-8601 instant>} starts
 * the schedule of all of them at the same instant, so that their levels line up and their records merge
 * second by second ({@code exec:java@merge}).
 */
public record Injectors(int index, int count, Instant startAt) {

  /** A lone injector: the whole load, started when the simulation is ready. */
  public static final Injectors ONE = new Injectors(0, 1, null);

  public Injectors {
    if (count < 1) {
      throw new IllegalArgumentException("-Dinjectors=" + count + ": expected a positive number of injectors");
    }
    if (index < 0 || index >= count) {
      throw new IllegalArgumentException(
          "-Dinjector=" + index + ": expected an index from 0 to " + (count - 1) + " (-Dinjectors=" + count + ")");
    }
  }

  /**
   * This injector's users of a level of {@code users}: shares differ by at most one user, the first
   * {@code users % count} injectors taking the extra one, and they add up to {@code users}.
   */
  public int share(int users) {
    return users / count + (index < users % count ? 1 : 0);
  }

  /** This injector's part of an open-model rate (calls per second, for the rate mode): an equal share. */
  public double shareOfRate(double perSecond) {
    return perSecond / count;
  }

  public boolean alone() {
    return count == 1;
  }

  /** The injectors of this run, checked, a bad value naming its property (see {@link LoadSettings#fromSystemProperties}). */
  public static Injectors fromSystemProperties() {
    return LoadSettings.checked(() -> from(System.getProperties()).notPast(System.currentTimeMillis()));
  }

  /** A -DstartAt already past when the simulation is built would cut its first level short on this injector only. */
  Injectors notPast(long nowMillis) {
    if (startAt != null && startAt.toEpochMilli() <= nowMillis) {
      throw new IllegalArgumentException("-DstartAt=" + startAt + ": that instant has passed (now " + Instant.ofEpochMilli(nowMillis)
          + "); expected one in the future, leaving every injector time to start");
    }
    return this;
  }

  public static Injectors from(Properties properties) {
    String countText = properties.getProperty("injectors", "1").trim();
    String indexText = properties.getProperty("injector", "0").trim();
    int count = parse(countText, "-Dinjectors", "a positive number of injectors, for example 3");
    int index = parse(indexText, "-Dinjector", "this injector's index, 0 to injectors - 1");
    if (count > 1 && properties.getProperty("injector") == null) {
      throw new IllegalArgumentException(
          "-Dinjectors=" + count + " without -Dinjector: expected -Dinjector=<0 to " + (count - 1) + ">, this injector's index");
    }
    String start = properties.getProperty("startAt");
    Instant startAt = null;
    if (start != null && !start.isBlank()) {
      try {
        startAt = Instant.parse(start.trim());
      } catch (DateTimeParseException e) {
        throw new IllegalArgumentException("-DstartAt=" + start + ": expected an ISO-8601 instant in UTC, for example 2026-12-01T12:00:00Z");
      }
    }
    return new Injectors(index, count, startAt);
  }

  private static int parse(String text, String property, String expected) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(property + "=" + text + ": expected " + expected);
    }
  }

  @Override
  public String toString() {
    return (alone() ? "one injector" : "injector " + index + " of " + count) + (startAt == null ? "" : ", starting at " + startAt);
  }
}
