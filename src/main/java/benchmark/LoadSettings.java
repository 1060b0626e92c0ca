package benchmark;

import protocols.core.Durations;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;

/**
 * The benchmark's knobs, read from system properties, checked once, with errors naming the property and
 * the form it expects.
 *
 * <ul>
 *   <li>{@code -Dlevels=100,500,1000,2000,5000}: the concurrency levels, in order
 *   <li>{@code -Dramp=5s}: time to go from one level to the next
 *   <li>{@code -Dhold=25s}: time spent at each level
 *   <li>{@code -Dtarget=host:port}: a running server; without it the simulation starts its own
 *   <li>{@code -Dconnections=per-user|N}: one connection per virtual user (the seed's model) or N shared
 *       ({@value #RATE_MODE_CONNECTIONS} shared by default in rate mode, {@link RateSettings})
 *   <li>{@code -DserviceTime=0}: service time of the embedded server per call
 *   <li>{@code -Dwarmup=0}: time at the first level before the figures count; its calls are named
 *       {@code "warm-up <name>"}, apart from the measured ones
 * </ul>
 */
public record LoadSettings(
    List<Integer> levels,
    Duration ramp,
    Duration hold,
    Duration warmup,
    HostAndPort target,
    ConnectionModel connections,
    Duration serviceTime) {

  public static final String DEFAULT_LEVELS = "100,500,1000,2000,5000";
  public static final String DEFAULT_RAMP = "5s";
  public static final String DEFAULT_HOLD = "25s";
  /** Shared connections in rate mode unless {@code -Dconnections} says otherwise. */
  public static final String RATE_MODE_CONNECTIONS = "8";

  /**
   * The settings of this run. Under {@code mvn gatling:test}, a bad value ends the run with one line
   * naming it: Gatling's launcher would otherwise bury that line in a stack trace.
   */
  public static LoadSettings fromSystemProperties() {
    return checked(() -> from(System.getProperties()));
  }

  /** Reads settings; under {@code mvn gatling:test}, a bad one ends the run with its one line. */
  static <T> T checked(java.util.function.Supplier<T> read) {
    try {
      return read.get();
    } catch (IllegalArgumentException e) {
      if (launchedByGatlingMavenPlugin()) {
        System.err.println("Invalid setting " + e.getMessage());
        System.exit(1);
      }
      throw e;
    }
  }

  private static boolean launchedByGatlingMavenPlugin() {
    return StackWalker.getInstance()
        .walk(frames -> frames.anyMatch(f -> f.getClassName().equals("io.gatling.plugin.util.ForkMain")));
  }

  public static LoadSettings from(Properties properties) {
    String target = properties.getProperty("target");
    return new LoadSettings(
        parseLevels(properties.getProperty("levels", DEFAULT_LEVELS)),
        Durations.parse(properties.getProperty("ramp", DEFAULT_RAMP), "-Dramp"),
        Durations.parse(properties.getProperty("hold", DEFAULT_HOLD), "-Dhold"),
        Durations.parse(properties.getProperty("warmup", "0"), "-Dwarmup"),
        target == null || target.isBlank() ? null : HostAndPort.parse(target, "-Dtarget"),
        // rate mode starts a user per call: a connection per user would be a connection per call
        parseConnections(properties.getProperty("connections",
            properties.getProperty("rate", properties.getProperty("rates")) != null ? RATE_MODE_CONNECTIONS : "per-user")),
        Durations.parse(properties.getProperty("serviceTime", "0"), "-DserviceTime"));
  }

  /** Whether the simulation must start its own server. */
  public boolean embedded() {
    return target == null;
  }

  /** Warm-up, then ramp and hold of every level, back to back. */
  public Duration totalDuration() {
    return warmup.plus(ramp.plus(hold).multipliedBy(levels.size()));
  }

  public static List<Integer> parseLevels(String text) {
    String expected =
        ": expected comma-separated positive integers (concurrent users), for example "
            + DEFAULT_LEVELS;
    if (text == null || text.isBlank()) {
      throw new IllegalArgumentException("-Dlevels=" + text + expected);
    }
    List<Integer> levels = new ArrayList<>();
    for (String part : text.split(",")) {
      try {
        int level = Integer.parseInt(part.trim());
        if (level < 1) {
          throw new NumberFormatException();
        }
        levels.add(level);
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException("-Dlevels=" + text + expected);
      }
    }
    return List.copyOf(levels);
  }

  public static ConnectionModel parseConnections(String text) {
    String value = text.trim();
    if (value.equals("per-user")) {
      return ConnectionModel.perUser();
    }
    try {
      return ConnectionModel.shared(Integer.parseInt(value));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "-Dconnections=" + text + ": expected per-user or a positive number of shared connections");
    }
  }

  @Override
  public String toString() {
    return "levels "
        + levels
        + ", ramp "
        + Durations.format(ramp)
        + ", hold "
        + Durations.format(hold)
        + (warmup.isZero() ? "" : ", warm-up " + Durations.format(warmup))
        + ", "
        + connections
        + ", target "
        + (target == null ? "embedded server" : target.toString());
  }
}
