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

/**
 * The injector's own cost, side by side against one server JVM per framework: for each level, a bare
 * asynchronous loop on the client library (the limit), the Gatling protocol, and the Gatling protocol
 * with the microsecond record turned off (what recording costs). Same connections, same durations.
 *
 * <pre>mvn test-compile exec:java@overhead -Dframeworks=grpc,thrift -Dlevels=100,1000 [-Dconnections=4|per-user]</pre>
 *
 * Connections: {@code -Dconnections} for every framework if given; else one per user for Thrift (as the
 * seed; libthrift's async client carries one call at a time, so with fewer its bare loop's chains wait
 * in line for one) and 4 shared for the others.
 *
 * <p>Thrift has two bare loops against the same Gatling runs: {@code thrift}, libthrift's own async
 * client (the baseline), and {@code thrift-netty}, the protocol's Netty client without Gatling.
 *
 * <p>{@code -Drepeats=N} (default 1) alternates each level's bare loops and Gatling runs N times and
 * reports the median of each figure, with the lowest and highest Gatling / bare ratio: what to use on a
 * shared machine, where one pair of runs says little.
 *
 * Writes {@code overhead.md} and {@code overhead.json} into {@code -Dout} (default bench/results/overhead-<stamp>).
 */
public final class Overhead {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern GATLING_RPS = Pattern.compile("> mean throughput \\(rps\\)\\s*\\|\\s*([\\d,.]+)");

  /** One level of one framework: calls/s and latencies (µs) of each way of calling. */
  public record Row(
      String framework, int level, String connections, double bareThroughput, double gatlingThroughput, double ratio,
      long bareP50, long gatlingP50, long bareP99, long gatlingP99,
      double bareCpuPerCall, double gatlingCpuPerCall,
      double gatlingConsoleRps, double gatlingConsoleRpsRecordOff, String problem,
      double ratioMin, double ratioMax, int runs) {

    Row(String framework, int level, String connections, double bareThroughput, double gatlingThroughput, double ratio,
        long bareP50, long gatlingP50, long bareP99, long gatlingP99, double bareCpuPerCall, double gatlingCpuPerCall,
        double gatlingConsoleRps, double gatlingConsoleRpsRecordOff, String problem) {
      this(framework, level, connections, bareThroughput, gatlingThroughput, ratio, bareP50, gatlingP50, bareP99, gatlingP99,
          bareCpuPerCall, gatlingCpuPerCall, gatlingConsoleRps, gatlingConsoleRpsRecordOff, problem, ratio, ratio, 1);
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
    Duration warmup = Durations.parse(System.getProperty("warmup", "5s"), "-Dwarmup");
    Duration hold = Durations.parse(System.getProperty("hold", "20s"), "-Dhold");
    int repeats = repeats(System.getProperty("repeats", "1"));
    Path out = Bench.out("overhead");
    Jvms jvms = new Jvms();
    List<Row> rows = new ArrayList<>();
    Bench.eachFramework(jvms, frameworks, out, "2g", List.of(),
        (framework, target, dir) -> {
          String connections = connections(framework, connectionsProperty);
          for (int level : levels) {
            // bare, Gatling, bare, Gatling...: load from other processes disturbs both sides alike
            List<List<Row>> runs = new ArrayList<>();
            for (int r = 1; r <= repeats; r++) {
              Path runDir = dir.resolve(String.valueOf(level));
              runs.add(measure(jvms, framework, target, level, connections, warmup, hold, repeats == 1 ? runDir : runDir.resolve("run" + r)));
            }
            rows.addAll(medians(runs));
          }
          return framework.id() + " measured";
        },
        (framework, reason) -> {
          String connections = connections(framework, connectionsProperty);
          levels.forEach(level -> bareLoops(framework).forEach(
              bare -> rows.add(new Row(bare, level, connections, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, reason))));
          return reason;
        });
    JSON.writerWithDefaultPrettyPrinter().writeValue(out.resolve("overhead.json").toFile(), rows);
    Files.writeString(out.resolve("overhead.md"), markdown(rows, warmup, hold));
    System.out.println(Files.readString(out.resolve("overhead.md")));
    return out;
  }

  /** {@code -Drepeats}: how many times each level's bare loops and Gatling runs alternate. */
  static int repeats(String text) {
    try {
      int n = Integer.parseInt(text.trim());
      if (n >= 1) {
        return n;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException("-Drepeats=" + text + ": expected a whole number of at least 1");
  }

  /** Per bare loop, the median of each figure over the runs, and the lowest and highest ratio. */
  static List<Row> medians(List<List<Row>> runs) {
    if (runs.size() == 1) {
      return runs.get(0);
    }
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i < runs.get(0).size(); i++) {
      int at = i;
      List<Row> same = runs.stream().map(run -> run.get(at)).toList();
      Row first = same.get(0);
      java.util.function.Function<java.util.function.ToDoubleFunction<Row>, Double> median = f -> {
        double[] v = same.stream().mapToDouble(f).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
      };
      String problems = same.stream().map(Row::problem).filter(java.util.Objects::nonNull).distinct()
          .reduce((a, b) -> a + "; " + b).orElse(null);
      rows.add(new Row(first.framework(), first.level(), first.connections(),
          median.apply(Row::bareThroughput), median.apply(Row::gatlingThroughput), median.apply(Row::ratio),
          Math.round(median.apply(Row::bareP50)), Math.round(median.apply(Row::gatlingP50)),
          Math.round(median.apply(Row::bareP99)), Math.round(median.apply(Row::gatlingP99)),
          median.apply(Row::bareCpuPerCall), median.apply(Row::gatlingCpuPerCall),
          median.apply(Row::gatlingConsoleRps), median.apply(Row::gatlingConsoleRpsRecordOff), problems,
          same.stream().mapToDouble(Row::ratio).min().orElse(0), same.stream().mapToDouble(Row::ratio).max().orElse(0),
          same.size()));
    }
    return rows;
  }

  /** {@code -Dconnections} if given; else one per user for Thrift, whose connections carry one call at a time, and 4 shared for the others. */
  static String connections(Framework framework, String property) {
    if (property != null) {
      return property.trim();
    }
    return framework.id().equals("thrift") ? "per-user" : "4";
  }

  /** The bare loops a framework's Gatling runs are compared with, by BareLoopMain id. */
  static List<String> bareLoops(Framework framework) {
    return framework.id().equals("thrift") ? List.of("thrift", "thrift-netty") : List.of(framework.id());
  }

  /** One row per bare loop of the framework, each against the same Gatling runs. */
  static List<Row> measure(Jvms jvms, Framework framework, HostAndPort target, int level, String connections, Duration warmup, Duration hold, Path dir)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Duration limit = warmup.plus(hold).plusSeconds(180);
    for (String loop : bareLoops(framework)) {
      Process bare = jvms.start(List.of("-Xmx2g"), "benchmark.bare.BareLoopMain",
          List.of(loop, target.toString(), String.valueOf(level), connections,
              warmup.toMillis() + "ms", hold.toMillis() + "ms", dir.resolve(bareFile(framework, loop, "json")).toString()),
          dir.resolve(bareFile(framework, loop, "log")));
      Jvms.await(bare, limit);
    }
    List<String> props = Bench.closedLoop(target, level, connections, warmup, hold);
    Jvms.await(jvms.startGatling("2g", props, framework.simulationClass(), dir.resolve("gatling"), dir.resolve("gatling.log")), limit);
    List<String> off = new ArrayList<>(props);
    off.add("-D" + LatencyRecord.ENABLED_PROPERTY + "=false");
    Jvms.await(jvms.startGatling("2g", off, framework.simulationClass(), dir.resolve("gatling-record-off"), dir.resolve("gatling-record-off.log")), limit);

    JsonNode g = GatlingResults.measured(GatlingResults.newestRun(dir.resolve("gatling")));
    List<Row> rows = new ArrayList<>();
    for (String loop : bareLoops(framework)) {
      JsonNode b = GatlingResults.measuredIn(dir.resolve(bareFile(framework, loop, "json")));
      String problem = b == null ? "bare loop wrote no result" + Jvms.tail(dir.resolve(bareFile(framework, loop, "log")))
          : g == null ? "Gatling wrote no record" + Jvms.tail(dir.resolve("gatling.log"))
          : failedCalls(b, g);
      double bt = b == null ? 0 : b.get("throughput").asDouble();
      double gt = g == null ? 0 : g.get("throughput").asDouble();
      rows.add(new Row(loop, level, connections, bt, gt, bt > 0 ? gt / bt : 0,
          b == null ? 0 : b.get("p50").asLong(), g == null ? 0 : g.get("p50").asLong(),
          b == null ? 0 : b.get("p99").asLong(), g == null ? 0 : g.get("p99").asLong(),
          b == null ? 0 : b.path("cpuPerCall").asDouble(), g == null ? 0 : g.path("cpuPerCall").asDouble(),
          consoleRps(dir.resolve("gatling.log")), consoleRps(dir.resolve("gatling-record-off.log")), problem));
    }
    return rows;
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

  static String markdown(List<Row> rows, Duration warmup, Duration hold) {
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT,
        "Closed loop; connections: N shared by all users, or one per user; warm-up %s excluded, %s measured;"
            + " server in its own JVM; %d cores.%n%n",
        Durations.format(warmup), Durations.format(hold), Runtime.getRuntime().availableProcessors()));
    md.append("| framework | users | connections | bare calls/s | Gatling calls/s | Gatling / bare | bare p50 µs | Gatling p50 µs | bare p99 µs | Gatling p99 µs"
        + " | injector CPU µs/call bare / Gatling | record on / off (Gatling rps) |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %d | %s | %.0f | %.0f | **%.2f**%s | %d | %d | %d | %d | %.1f / %.1f | %.2f |%s%n",
          r.framework(), r.level(), r.connections(), r.bareThroughput(), r.gatlingThroughput(), r.ratio(),
          r.runs() > 1 ? String.format(Locale.ROOT, " (%.2f–%.2f, median of %d)", r.ratioMin(), r.ratioMax(), r.runs()) : "",
          r.bareP50(), r.gatlingP50(),
          r.bareP99(), r.gatlingP99(), r.bareCpuPerCall(), r.gatlingCpuPerCall(), r.gatlingConsoleRpsRecordOff() > 0 ? r.gatlingConsoleRps() / r.gatlingConsoleRpsRecordOff() : 0,
          r.problem() == null ? "" : " " + r.problem()));
    }
    return md.toString();
  }
}
