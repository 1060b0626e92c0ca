package benchmark.matrix;

import protocols.core.Durations;
import benchmark.LoadSettings;
import benchmark.RateSettings;
import benchmark.Stall;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import protocols.core.HostAndPort;

/**
 * The matrix command's knobs (system properties), checked once. Short defaults: the full matrix of five
 * frameworks and five levels takes about 15 minutes on a 2-core machine.
 */
public record MatrixSettings(
    List<Framework> frameworks,
    List<Integer> levels,
    Duration warmup,
    Duration hold,
    String connections,
    Duration serviceTime,
    Map<String, HostAndPort> targets,
    Map<String, List<String>> serverArgs,
    Path out,
    Path baseline,
    String gate,
    String heap,
    int injectors,
    Duration startDelay,
    Saturation saturation,
    List<Integer> rates,
    List<String> rateOptions,
    Stall stall) {

  public static MatrixSettings from(Properties p) {
    List<Framework> frameworks = new ArrayList<>();
    for (String id : p.getProperty("frameworks", "rpcx,grpc,thrift,dubbo,motan").split(",")) {
      frameworks.add(Framework.byId(id));
    }
    String connections = p.getProperty("connections"); // null: each simulation's own default
    if (connections != null) {
      LoadSettings.parseConnections(connections); // validates
    }
    Map<String, HostAndPort> targets = new LinkedHashMap<>();
    Map<String, List<String>> serverArgs = new LinkedHashMap<>();
    for (Framework f : Framework.ALL) {
      String extra = p.getProperty("serverArgs." + f.id(), "").trim();
      serverArgs.put(f.id(), extra.isEmpty() ? List.of() : List.of(extra.split("\\s+")));
      String target = p.getProperty("target." + f.id());
      if (target != null && !target.isBlank()) {
        targets.put(f.id(), HostAndPort.parse(target, "-Dtarget." + f.id()));
      }
    }
    Duration hold = Durations.parse(p.getProperty("hold", "15s"), "-Dhold");
    if (hold.isZero()) {
      throw new IllegalArgumentException("-Dhold=0: expected a positive duration, for example 15s");
    }
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    String baseline = p.getProperty("baseline");
    return new MatrixSettings(
        List.copyOf(frameworks),
        LoadSettings.parseLevels(p.getProperty("levels", LoadSettings.DEFAULT_LEVELS)),
        Durations.parse(p.getProperty("warmup", "5s"), "-Dwarmup"),
        hold,
        connections,
        Durations.parse(p.getProperty("serviceTime", "0"), "-DserviceTime"),
        Map.copyOf(targets),
        Map.copyOf(serverArgs),
        Paths.get(p.getProperty("out", "target/benchmark/" + stamp)),
        baseline == null || baseline.isBlank() ? null : Paths.get(baseline),
        p.getProperty("gate", ""),
        p.getProperty("heap", "2g"),
        injectors(p.getProperty("injectors", "1")),
        Durations.parse(p.getProperty("startDelay", "30s"), "-DstartDelay"),
        Saturation.from(p),
        rates(p),
        rateOptions(p),
        p.getProperty("stall") == null || p.getProperty("stall").isBlank() ? Stall.NONE : Stall.parse(p.getProperty("stall"), "-Dstall"));
  }

  /** Whether the cells are rates (-Dsaturation or -Drate/-Drates) rather than concurrency levels. */
  public boolean rateMode() {
    return saturation != null || !rates.isEmpty();
  }

  /**
   * -Drate/-Drates: each rate one step per framework, as the sweep runs them but every one of them (no SLO,
   * no stop); with -Dinjectors=N, N injector JVMs per step, judged on their merge.
   */
  private static List<Integer> rates(Properties p) {
    List<Integer> rates = RateSettings.parseRates(p);
    if (!rates.isEmpty() && p.getProperty("saturation") != null && !p.getProperty("saturation").isBlank()) {
      throw new IllegalArgumentException("-Dsaturation with -Drate/-Drates: expected one of them (the sweep chooses its own rates from -DstartRate, -DrateFactor, -DmaxRate)");
    }
    return rates;
  }

  /** The rate mode's pacing options, passed to every step as they were given. */
  private static List<String> rateOptions(Properties p) {
    List<String> options = new ArrayList<>();
    for (String key : List.of("pacing", "pool")) {
      String value = p.getProperty(key);
      if (value != null && !value.isBlank()) {
        options.add("-D" + key + "=" + value.trim());
      }
    }
    return List.copyOf(options);
  }


  private static int injectors(String text) {
    try {
      int n = Integer.parseInt(text.trim());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException("-Dinjectors=" + text + ": expected a positive number of injector JVMs per cell, for example 2");
  }

  /** Settings as the report prints them. */
  public Map<String, String> describe() {
    Map<String, String> d = new LinkedHashMap<>();
    if (rateMode()) {
      d.put("model", (rateOptions.contains("-Dpacing=open") ? "open (a user per call)" : "paced users")
          + ": a fixed call rate per step, one Gatling run each, every call measured from its intended send time too");
      if (saturation != null) {
        d.put("saturation sweep", saturation.toString());
      } else {
        d.put("rates", rates + " calls/s");
      }
      rateOptions.forEach(o -> d.put(o.substring(2, o.indexOf('=')), o.substring(o.indexOf('=') + 1)));
      d.put("warm-up per step (excluded)", Durations.format(warmup));
      d.put("measured per step", Durations.format(hold));
    } else {
      d.put("model", "closed: constant concurrent users per level, each calling again as soon as its reply arrives");
      d.put("levels", levels.toString());
      d.put("warm-up per level (excluded)", Durations.format(warmup));
      d.put("measured per level", Durations.format(hold));
    }
    d.put("connections", connections == null && rateMode()
        ? "each simulation's rate-mode default: " + LoadSettings.RATE_MODE_CONNECTIONS + " shared"
        : connections == null
        ? "each simulation's default: one per virtual user; Dubbo: 1 shared (Dubbo's own default)"
        : connections.equals("per-user") ? "one per virtual user" : connections + " shared");
    d.put("server service time", Durations.format(serviceTime));
    if (!stall.none()) {
      d.put("server stall", "every " + Durations.format(stall.every()) + ", replies wait " + Durations.format(stall.pause()));
    }
    d.put("server", targets.isEmpty() ? "each framework's benchmark server in its own JVM on this machine (loopback)" : "own JVM, or remote: " + targets);
    d.put("injector JVM heap", heap);
    if (injectors > 1) {
      d.put("injectors", injectors + " JVMs per cell, each a share of the level, started at one instant, records merged exactly");
    }
    return d;
  }
}
