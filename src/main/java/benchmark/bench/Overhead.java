package benchmark.bench;

import protocols.core.Durations;
import benchmark.LoadSettings;
import benchmark.matrix.Framework;
import benchmark.matrix.GatlingResults;
import benchmark.matrix.Jvms;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import protocols.core.HostAndPort;
import protocols.core.LatencyRecord;
import protocols.core.report.Calls;

/**
 * The injector's own cost, side by side against one server JVM per framework: for each level, a bare
 * asynchronous loop on the client library (the limit), the Gatling protocol, and the Gatling protocol
 * with the microsecond record turned off (what recording costs). Same connections, same durations.
 *
 * <pre>mvn test-compile exec:java@overhead -Dframeworks=grpc,thrift -Dlevels=100,1000 [-Dconnections=4|per-user] [-Druns=3]</pre>
 *
 * Connections: {@code -Dconnections} for every framework if given; else one per user for Thrift (as the
 * seed; libthrift's async client carries one call at a time, so with fewer its bare loop's chains wait
 * in line for one) and 4 shared for the others.
 *
 * <p>Thrift has two bare loops against the same Gatling runs: {@code thrift}, libthrift's own async
 * client (the baseline), and {@code thrift-netty}, the protocol's Netty client without Gatling.
 *
 * Writes {@code overhead.md} and {@code overhead.json} into {@code -Dout} (default bench/results/overhead-<stamp>); with
 * {@code -Dprofile=true}, a CPU profile of every measured run and its summary, {@code <framework>/<level>/profile.md}.
 */
public final class Overhead {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern GATLING_RPS = Pattern.compile("> mean throughput \\(rps\\)\\s*\\|\\s*([\\d,.]+)");

  /**
   * One level of one framework over {@code runs} alternating pairs (bare, Gatling): calls/s, latencies
   * (µs) and injector CPU µs per call are the medians over the runs, {@code ratio} the median of the
   * pairs' ratios; min and max, the spread.
   */
  public record Row(
      String framework, int level, String connections, int runs, double bareThroughput, double gatlingThroughput,
      double ratio, double ratioMin, double ratioMax,
      long bareP50, long gatlingP50, long bareP99, long gatlingP99,
      double bareCpuPerCall, double bareCpuMin, double bareCpuMax,
      double gatlingCpuPerCall, double gatlingCpuMin, double gatlingCpuMax,
      double gatlingConsoleRps, double gatlingConsoleRpsRecordOff, Split split, String problem) {

    static Row failed(String framework, int level, String connections, String problem) {
      return new Row(framework, level, connections, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, null, problem);
    }
  }

  /**
   * Where the CPU per call goes, from /proc over each side's measured window (medians over the pairs):
   * the injector's user and system µs and its context switches (voluntary: wake-ups) per call, and the
   * server's CPU µs per call during each side's window. Zero where it could not be read.
   */
  public record Split(
      double bareUser, double bareSystem, double bareSwitches, double gatlingUser, double gatlingSystem, double gatlingSwitches,
      double serverDuringBare, double serverDuringGatling) {

    static Split of(List<Pair> pairs) {
      return new Split(
          median(pairs, p -> injector(p.bareUsage(), ProcessMeter.Usage::userMicros)),
          median(pairs, p -> injector(p.bareUsage(), ProcessMeter.Usage::systemMicros)),
          median(pairs, p -> injector(p.bareUsage(), ProcessMeter.Usage::voluntarySwitches)),
          median(pairs, p -> injector(p.gatlingUsage(), ProcessMeter.Usage::userMicros)),
          median(pairs, p -> injector(p.gatlingUsage(), ProcessMeter.Usage::systemMicros)),
          median(pairs, p -> injector(p.gatlingUsage(), ProcessMeter.Usage::voluntarySwitches)),
          median(pairs, p -> server(p.bareUsage())),
          median(pairs, p -> server(p.gatlingUsage())));
    }

    private static double median(List<Pair> pairs, java.util.function.ToDoubleFunction<Pair> figure) {
      return Runs.of(pairs, figure).median();
    }

    private static double injector(Usages u, java.util.function.ToDoubleFunction<ProcessMeter.Usage> figure) {
      ProcessMeter.Usage i = u.injector();
      return i == null ? 0 : figure.applyAsDouble(i);
    }

    private static double server(Usages u) {
      return u.server() == null ? 0 : u.server().userMicros() + u.server().systemMicros();
    }
  }

  /** One pair's figures: a bare loop's result and Gatling's, either null when it wrote none; what /proc saw of each. */
  private record Pair(JsonNode bare, JsonNode gatling, double consoleRps, Usages bareUsage, Usages gatlingUsage) {
    double ratio() {
      return bare.get("throughput").asDouble() > 0 ? gatling.get("throughput").asDouble() / bare.get("throughput").asDouble() : 0;
    }
  }

  public static void main(String[] args) throws Exception {
    execute();
    System.exit(0);
  }

  /** Runs the measurement; returns the folder of its results. */
  public static Path execute() throws Exception {
    List<Framework> frameworks = Bench.frameworks("grpc");
    List<Integer> levels = LoadSettings.parseLevels(System.getProperty("levels", "100,1000"));
    String connectionsProperty = System.getProperty("connections");
    if (connectionsProperty != null) {
      LoadSettings.parseConnections(connectionsProperty); // validates
    }
    Duration warmup = Bench.steadyWarmup();
    Duration settle = settle(warmup);
    Duration hold = Durations.parse(System.getProperty("hold", "20s"), "-Dhold");
    int runs = Runs.count();
    Path out = Bench.out("overhead");
    Jvms jvms = new Jvms();
    List<Row> rows = new ArrayList<>();
    Bench.eachFramework(jvms, frameworks, out, "2g", List.of(),
        (framework, target, dir) -> {
          String connections = connections(framework, connectionsProperty);
          for (int level : levels) {
            rows.addAll(measure(jvms, framework, target, level, connections, warmup, settle, hold, runs, dir.resolve(String.valueOf(level))));
          }
          return framework.id() + " measured";
        },
        (framework, reason) -> {
          String connections = connections(framework, connectionsProperty);
          levels.forEach(level -> bareLoops(framework).forEach(
              bare -> rows.add(Row.failed(bare, level, connections, reason))));
          return reason;
        });
    JSON.writerWithDefaultPrettyPrinter().writeValue(out.resolve("overhead.json").toFile(), rows);
    Files.writeString(out.resolve("overhead.md"), markdown(rows, warmup, settle, hold) + "\n" + MachineReference.line() + "\n");
    System.out.println(Files.readString(out.resolve("overhead.md")));
    return out;
  }

  /**
   * {@code -Dsettle} (10 s by default; none without a warm-up): how long after its warm-up Gatling's
   * figures start. When the warm-up ends, the staircase renames its calls ("warm-up Say" to "Say") and
   * runs them from another loop, and the JIT recompiles what that reaches: in a Thrift run at 1000 users
   * (2026-12-04) Gatling's compiler threads were idle from 20 s to 45 s, then took 93 ms of CPU a second
   * from 46 s to 52 s, inside the 10 s measured then. The bare loop has no such switch. So Gatling holds
   * settle + hold and its figures are its last hold; the bare loop warms up for warm-up + settle: both
   * measure the same stretch of their run.
   */
  static Duration settle(Duration warmup) {
    return warmup.isZero() ? Duration.ZERO : Durations.parse(System.getProperty("settle", "10s"), "-Dsettle");
  }

  /** {@code -Dconnections} if given; else one per user for Thrift, whose connections carry one call at a time, and 4 shared for the others. */
  static String connections(Framework framework, String property) {
    if (property != null) {
      return property.trim();
    }
    return framework.id().equals("thrift") ? "per-user" : "4";
  }

  private static List<Path> runFiles(Path dir, int runs, String file) {
    List<Path> files = new ArrayList<>();
    for (int run = 1; run <= runs; run++) {
      files.add(dir.resolve("run-" + run).resolve(file));
    }
    return files;
  }

  /** The bare loops a framework's Gatling runs are compared with, by BareLoopMain id. */
  static List<String> bareLoops(Framework framework) {
    return framework.id().equals("thrift") ? List.of("thrift", "thrift-netty") : List.of(framework.id());
  }

  /**
   * One row per bare loop of the framework, each against the same Gatling runs: {@code runs} rounds of
   * the bare loops then Gatling (in {@code run-<i>/}), then one Gatling run with the record off.
   */
  static List<Row> measure(
      Jvms jvms, Framework framework, HostAndPort target, int level, String connections, Duration warmup, Duration settle,
      Duration hold, int runs, Path dir)
      throws IOException, InterruptedException {
    Duration limit = warmup.plus(settle).plus(hold).plusSeconds(180);
    List<String> props = Bench.closedLoop(target, level, connections, warmup, settle.plus(hold));
    ProcessMeter server = jvms.running(framework.serverMainClass()).map(ProcessMeter::watch).orElse(null);
    try {
      for (int run = 1; run <= runs; run++) {
        Path runDir = Files.createDirectories(dir.resolve("run-" + run));
        for (String loop : bareLoops(framework)) {
          List<String> options = new ArrayList<>(List.of("-Xmx2g"));
          options.addAll(Bench.passedSwitches()); // the Netty bare loops pick the transport Gatling would
          options.addAll(Profiles.jvmOptions(runDir.resolve(bareFile(framework, loop, "jfr")), warmup.plus(settle)));
          Path json = runDir.resolve(bareFile(framework, loop, "json"));
          Process bare = jvms.start(options, "benchmark.bare.BareLoopMain",
              List.of(loop, target.toString(), String.valueOf(level), connections,
                  warmup.plus(settle).toMillis() + "ms", hold.toMillis() + "ms", json.toString()),
              runDir.resolve(bareFile(framework, loop, "log")));
          try (ProcessMeter meter = ProcessMeter.watch(bare)) {
            Jvms.await(bare, limit);
            Usages.ofBareLoop(json, meter, server).write(runDir.resolve(bareFile(framework, loop, "usage.json")));
          }
        }
        List<String> gatlingOptions = new ArrayList<>(props);
        gatlingOptions.addAll(Profiles.jvmOptions(runDir.resolve("gatling.jfr"), warmup.plus(settle)));
        Process gatling = jvms.startGatling("2g", gatlingOptions, framework.simulationClass(), runDir.resolve("gatling"), runDir.resolve("gatling.log"));
        try (ProcessMeter meter = ProcessMeter.watch(gatling)) {
          Jvms.await(gatling, limit);
          Usages.ofGatlingRun(GatlingResults.newestRun(runDir.resolve("gatling")), settle, meter, server).write(runDir.resolve("gatling.usage.json"));
        }
      }
    } finally {
      if (server != null) {
        server.close();
      }
    }
    if (Profiles.enabled()) {
      List<String> lines = new ArrayList<>();
      for (int run = 1; run <= runs; run++) {
        for (String loop : bareLoops(framework)) {
          lines.add(Profiles.summary("run " + run + ", bare " + loop, dir.resolve("run-" + run).resolve(bareFile(framework, loop, "jfr"))));
        }
        lines.add(Profiles.summary("run " + run + ", Gatling", dir.resolve("run-" + run).resolve("gatling.jfr")));
      }
      StringBuilder hot = new StringBuilder();
      for (String loop : bareLoops(framework)) {
        hot.append("\n").append(Profiles.hotFrames("bare " + loop, runFiles(dir, runs, bareFile(framework, loop, "jfr")), 40));
      }
      hot.append("\n").append(Profiles.hotFrames("Gatling", runFiles(dir, runs, "gatling.jfr"), 40));
      Files.writeString(dir.resolve("profile.md"), "CPU samples of " + framework.id() + " at " + level + " users, by the innermost frame"
          + " that is not the JDK's (benchmark.bench.Profiles):\n\n" + String.join("\n", lines) + "\n" + hot);
    }
    List<String> off = new ArrayList<>(props);
    off.add("-D" + LatencyRecord.ENABLED_PROPERTY + "=false");
    Jvms.await(jvms.startGatling("2g", off, framework.simulationClass(), dir.resolve("gatling-record-off"), dir.resolve("gatling-record-off.log")), limit);
    double consoleRpsOff = consoleRps(dir.resolve("gatling-record-off.log"));

    List<Row> rows = new ArrayList<>();
    for (String loop : bareLoops(framework)) {
      List<Pair> pairs = new ArrayList<>();
      List<String> problems = new ArrayList<>();
      for (int run = 1; run <= runs; run++) {
        Path runDir = dir.resolve("run-" + run);
        JsonNode b = GatlingResults.measuredIn(runDir.resolve(bareFile(framework, loop, "json")));
        JsonNode g = gatlingFigures(GatlingResults.newestRun(runDir.resolve("gatling")), settle);
        String problem = b == null ? "bare loop wrote no result" + Jvms.tail(runDir.resolve(bareFile(framework, loop, "log")))
            : g == null ? "Gatling wrote no record" + Jvms.tail(runDir.resolve("gatling.log"))
            : failedCalls(b, g);
        if (problem == null && b.get("throughput").asDouble() * g.get("throughput").asDouble() == 0) {
          problem = "a side measured no call (bare " + b.get("throughput").asDouble() + " calls/s, Gatling " + g.get("throughput").asDouble() + "): left out";
        }
        if (problem != null) {
          problems.add((runs > 1 ? "run " + run + ": " : "") + problem);
        }
        if (b != null && g != null && b.get("throughput").asDouble() * g.get("throughput").asDouble() > 0) {
          pairs.add(new Pair(b, g, consoleRps(runDir.resolve("gatling.log")),
              Usages.read(runDir.resolve(bareFile(framework, loop, "usage.json"))), Usages.read(runDir.resolve("gatling.usage.json"))));
        }
      }
      rows.add(row(loop, level, connections, pairs, consoleRpsOff, problems.isEmpty() ? null : String.join("; ", problems)));
    }
    return rows;
  }

  /**
   * Gatling's figures over its window ({@link Usages#settledWindow}: from {@code settle} after its first
   * measured second), in the record's form (count, ok, ko, throughput, p50, p99...); null when it has none.
   */
  static JsonNode gatlingFigures(Path runFolder, Duration settle) {
    try {
      Calls window = runFolder == null ? null : Usages.settledWindow(runFolder, GatlingResults.MEASURED, settle);
      return window == null ? null : JSON.valueToTree(window.stats());
    } catch (IOException | RuntimeException e) {
      return null;
    }
  }

  /** The medians and spreads of the pairs in which both sides measured calls. */
  private static Row row(String loop, int level, String connections, List<Pair> pairs, double consoleRpsOff, String problem) {
    Runs.Spread ratio = Runs.of(pairs, Pair::ratio);
    // both from /proc over each side's window: Gatling's window is not its record's whole "Say"
    Runs.Spread bareCpu = Runs.of(pairs, p -> cpuPerCall(p.bareUsage()));
    Runs.Spread gatlingCpu = Runs.of(pairs, p -> cpuPerCall(p.gatlingUsage()));
    return new Row(loop, level, connections, pairs.size(),
        Runs.of(pairs, p -> p.bare().get("throughput").asDouble()).median(),
        Runs.of(pairs, p -> p.gatling().get("throughput").asDouble()).median(),
        ratio.median(), ratio.min(), ratio.max(),
        (long) Runs.of(pairs, p -> p.bare().get("p50").asDouble()).median(), (long) Runs.of(pairs, p -> p.gatling().get("p50").asDouble()).median(),
        (long) Runs.of(pairs, p -> p.bare().get("p99").asDouble()).median(), (long) Runs.of(pairs, p -> p.gatling().get("p99").asDouble()).median(),
        bareCpu.median(), bareCpu.min(), bareCpu.max(), gatlingCpu.median(), gatlingCpu.min(), gatlingCpu.max(),
        Runs.of(pairs, Pair::consoleRps).median(), consoleRpsOff, Split.of(pairs), problem);
  }

  /** The injector's user and system µs per call in a side's window; 0 when /proc could not be read. */
  private static double cpuPerCall(Usages usage) {
    ProcessMeter.Usage injector = usage.injector();
    return injector == null ? 0 : injector.userMicros() + injector.systemMicros();
  }

  /** bare.json for a framework's only loop (as before), bare-thrift-netty.json for a second one. */
  private static String bareFile(Framework framework, String loop, String extension) {
    return (loop.equals(framework.id()) ? "bare" : "bare-" + loop) + "." + extension;
  }

  /** Null when every measured call was OK, both ways; else how many were not. */
  static String failedCalls(JsonNode bare, JsonNode gatling) {
    long bareKo = bare.path("ko").asLong();
    long gatlingKo = gatling.path("ko").asLong();
    return bareKo == 0 && gatlingKo == 0 ? null : "KO: bare " + bareKo + ", Gatling " + gatlingKo;
  }

  /** Gatling's own "mean throughput (rps)" of the whole run (warm-up included, same for both runs). */
  static double consoleRps(Path log) {
    try {
      Matcher m = GATLING_RPS.matcher(Files.readString(log));
      double last = 0;
      while (m.find()) {
        last = Double.parseDouble(m.group(1).replace(",", ""));
      }
      return last;
    } catch (IOException e) {
      return 0;
    }
  }

  static String markdown(List<Row> rows, Duration warmup, Duration settle, Duration hold) {
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT,
        "Closed loop; connections: N shared by all users, or one per user; warm-up %s excluded%s, %s measured;"
            + " server in its own JVM; %d cores. Each figure: the median over the runs, alternating bare and Gatling"
            + " (bare, Gatling, bare, Gatling…); in brackets, the lowest and highest run. Injector CPU: user and"
            + " system time per call from /proc over each side's window.%n%n",
        Durations.format(warmup),
        settle.isZero() ? "" : String.format(Locale.ROOT, " and %s more (Gatling: its first %s after the warm-up, while the JIT"
            + " recompiles for the renamed calls; the bare loop: a warm-up %s longer)", Durations.format(settle), Durations.format(settle),
            Durations.format(settle)),
        Durations.format(hold), Runtime.getRuntime().availableProcessors()));
    md.append("| framework | users | connections | runs | bare calls/s | Gatling calls/s | Gatling / bare | bare p50 µs | Gatling p50 µs | bare p99 µs | Gatling p99 µs"
        + " | injector CPU µs/call bare | injector CPU µs/call Gatling | record on / off (Gatling rps) |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %d | %s | %d | %.0f | %.0f | **%s** | %d | %d | %d | %d | %s | %s | %.2f |%s%n",
          r.framework(), r.level(), r.connections(), r.runs(), r.bareThroughput(), r.gatlingThroughput(),
          new Runs.Spread(r.ratio(), r.ratioMin(), r.ratioMax()).format("%.2f"), r.bareP50(), r.gatlingP50(),
          r.bareP99(), r.gatlingP99(),
          new Runs.Spread(r.bareCpuPerCall(), r.bareCpuMin(), r.bareCpuMax()).format("%.1f"),
          new Runs.Spread(r.gatlingCpuPerCall(), r.gatlingCpuMin(), r.gatlingCpuMax()).format("%.1f"),
          r.gatlingConsoleRpsRecordOff() > 0 ? r.gatlingConsoleRps() / r.gatlingConsoleRpsRecordOff() : 0,
          r.problem() == null ? "" : " " + r.problem()));
    }
    md.append("\nWhere the CPU per call goes (from /proc over each side's measured window, medians): the injector's user and"
        + " system µs per call and its voluntary context switches (wake-ups) per call; the server's CPU µs per call while each side ran.\n\n");
    md.append("| framework | users | bare user µs | bare system µs | bare switches/call | Gatling user µs | Gatling system µs | Gatling switches/call"
        + " | server µs/call, bare run | server µs/call, Gatling run |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      Split x = r.split();
      if (x != null) {
        md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f | %.1f | %.1f |%n", r.framework(), r.level(),
            x.bareUser(), x.bareSystem(), x.bareSwitches(), x.gatlingUser(), x.gatlingSystem(), x.gatlingSwitches(),
            x.serverDuringBare(), x.serverDuringGatling()));
      }
    }
    return md.toString();
  }
}
