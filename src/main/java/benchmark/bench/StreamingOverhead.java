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
import protocols.core.HostAndPort;
import protocols.core.LatencyRecord;

/**
 * gRPC streams: messages per second received through Gatling (GrpcStreamingSimulation, one kind of
 * stream at a time) against a bare grpc-java loop ({@link benchmark.bare.GrpcStreamLoop}), on one
 * benchmark server JVM, with the same users, channels, messages per stream and durations; {@code
 * -Dpairs} times per kind, alternating, and the medians. {@code -Dkinds=bidi} measures only those kinds
 * ({@code server,bidi} by default). {@code -Dprofile=true} records a JFR CPU profile of every run from the
 * end of its warm-up ({@code bare.jfr}, {@code gatling.jfr} in its folder), summed up per kind and level
 * in {@code <kind>-<level>-profile.md} ({@link Profiles}: by category, and the hottest frames of each side).
 *
 * <pre>mvn test-compile exec:java@streaming -Dlevels=100 -Dconnections=4 -Dmessages=100 -Dwarmup=45s -Dhold=20s -Dpairs=3</pre>
 *
 * Writes {@code streaming.md} and {@code streaming.json} into {@code -Dout} (default bench/results/streaming-<stamp>).
 */
public final class StreamingOverhead {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One kind of stream at one level: the medians of its pairs of runs, bare then Gatling, and their spread. */
  public record Row(
      String kind, int level, String connections, int messages, double bareMessagesPerSecond,
      double gatlingMessagesPerSecond, double ratio, List<Double> ratios, double bareCpuPerMessage,
      double gatlingCpuPerMessage, long gatlingP50, long gatlingP99, double serverCpuPerMessageBare,
      double serverCpuPerMessageGatling, String problem) {}

  /**
   * One bare run and the Gatling run after it; the server's CPU µs per message received over each
   * one's measured window (from /proc; 0 when unread): with client and server on the same cores, what
   * a ratio can reach depends on it.
   */
  record Pair(double bare, double gatling, double bareCpu, double gatlingCpu, long p50, long p99, double bareServerCpu,
      double gatlingServerCpu, String problem) {}

  /** The stream kinds measured: what the bare loop calls them, and the simulation's request name. */
  private static final List<String[]> KINDS = List.of(new String[] {"server", "ServerStream"}, new String[] {"bidi", "BidiStream"});

  /** {@code -Dkinds}: some of server,bidi, in this order. */
  static List<String[]> kinds(String value) {
    List<String> asked = List.of(value.split(",")).stream().map(String::trim).toList();
    List<String[]> kinds = KINDS.stream().filter(k -> asked.contains(k[0])).toList();
    if (kinds.isEmpty() || asked.stream().anyMatch(a -> KINDS.stream().noneMatch(k -> k[0].equals(a)))) {
      throw new IllegalArgumentException("-Dkinds=" + value + ": expected some of server,bidi");
    }
    return kinds;
  }

  public static void main(String[] args) throws Exception {
    execute();
    System.exit(0);
  }

  public static Path execute() throws Exception {
    List<Integer> levels = LoadSettings.parseLevels(System.getProperty("levels", "100"));
    String connections = System.getProperty("connections", "4").trim();
    LoadSettings.parseConnections(connections); // validates
    int messages = Integer.parseInt(System.getProperty("messages", "100"));
    int pairs = pairs(System.getProperty("pairs", "3"));
    List<String[]> kinds = kinds(System.getProperty("kinds", "server,bidi"));
    Duration warmup = Bench.steadyWarmup();
    Duration hold = Durations.parse(System.getProperty("hold", "20s"), "-Dhold");
    Path out = Bench.out("streaming");
    Jvms jvms = new Jvms();
    List<Row> rows = new ArrayList<>();
    Bench.eachFramework(jvms, List.of(Framework.byId("grpc")), out, "2g", List.of(),
        (framework, target, dir) -> {
          try (ProcessMeter server = jvms.running(framework.serverMainClass()).map(ProcessMeter::watch).orElse(null)) {
            for (int level : levels) {
              for (String[] kind : kinds) {
                List<Pair> runs = new ArrayList<>();
                List<Path> runDirs = new ArrayList<>();
                // bare, Gatling, bare, Gatling...: what load the machine has falls on both alike
                for (int pair = 1; pair <= pairs; pair++) {
                  runDirs.add(dir.resolve(kind[0] + "-" + level + "-" + pair));
                  runs.add(measure(jvms, server, kind, target, level, connections, messages, warmup, hold, runDirs.get(pair - 1)));
                }
                rows.add(row(kind[1], level, connections, messages, runs));
                if (Profiles.enabled()) {
                  Files.writeString(dir.resolve(kind[0] + "-" + level + "-profile.md"), profile(kind[1], level, runDirs));
                }
              }
            }
          }
          return "grpc streams measured";
        },
        (framework, reason) -> {
          levels.forEach(level -> kinds.forEach(kind ->
              rows.add(new Row(kind[1], level, connections, messages, 0, 0, 0, List.of(), 0, 0, 0, 0, 0, 0, reason))));
          return reason;
        });
    JSON.writerWithDefaultPrettyPrinter().writeValue(out.resolve("streaming.json").toFile(), rows);
    Files.writeString(out.resolve("streaming.md"), markdown(rows, warmup, hold, pairs) + "\n" + MachineReference.line() + "\n");
    System.out.println(Files.readString(out.resolve("streaming.md")));
    return out;
  }

  /** Each run's CPU samples by category, then each side's hottest frames over all its runs. */
  static String profile(String kind, int level, List<Path> runDirs) {
    List<String> lines = new ArrayList<>();
    for (int pair = 1; pair <= runDirs.size(); pair++) {
      lines.add(Profiles.summary("pair " + pair + ", bare", runDirs.get(pair - 1).resolve("bare.jfr")));
      lines.add(Profiles.summary("pair " + pair + ", Gatling", runDirs.get(pair - 1).resolve("gatling.jfr")));
    }
    return "## " + kind + " at " + level + " users: CPU samples by the innermost frame that is not the JDK's (benchmark.bench.Profiles)\n\n"
        + String.join("\n", lines) + "\n\n"
        + Profiles.hotFrames("bare", runDirs.stream().map(d -> d.resolve("bare.jfr")).toList(), 30) + "\n"
        + Profiles.hotFrames("Gatling", runDirs.stream().map(d -> d.resolve("gatling.jfr")).toList(), 30);
  }

  static int pairs(String value) {
    try {
      int n = Integer.parseInt(value.trim());
      if (n >= 1 && n <= 20) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("-Dpairs=" + value + ": expected how many bare/Gatling pairs of runs per kind, 1 to 20");
  }

  static Row row(String kind, int level, String connections, int messages, List<Pair> runs) {
    List<Double> ratios = runs.stream().map(p -> p.bare() > 0 ? p.gatling() / p.bare() : 0).toList();
    String problem = runs.stream().map(Pair::problem).filter(p -> p != null).findFirst().orElse(null);
    return new Row(kind, level, connections, messages, median(runs, Pair::bare), median(runs, Pair::gatling),
        median(ratios, r -> r), ratios, median(runs, Pair::bareCpu), median(runs, Pair::gatlingCpu),
        (long) median(runs, p -> (double) p.p50()), (long) median(runs, p -> (double) p.p99()),
        median(runs, Pair::bareServerCpu), median(runs, Pair::gatlingServerCpu), problem);
  }

  static <T> double median(List<T> values, java.util.function.ToDoubleFunction<T> of) {
    double[] sorted = values.stream().mapToDouble(of).sorted().toArray();
    if (sorted.length == 0) {
      return 0;
    }
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  /** {@code server}: the server's CPU over each side's measured window (null where there is no /proc). */
  private static Pair measure(
      Jvms jvms, ProcessMeter server, String[] kind, HostAndPort target, int level, String connections, int messages, Duration warmup,
      Duration hold, Path dir) throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Duration limit = warmup.plus(hold).plusSeconds(180);
    Path bareJson = dir.resolve("bare.json");
    List<String> bareOptions = new ArrayList<>(List.of("-Xmx2g"));
    bareOptions.addAll(Bench.passedSwitches()); // the bare loop picks the transport Gatling would
    bareOptions.addAll(Profiles.jvmOptions(dir.resolve("bare.jfr"), warmup));
    Process bare = jvms.start(bareOptions, "benchmark.bare.GrpcStreamLoop",
        List.of(kind[0], target.toString(), String.valueOf(level), connections, warmup.toMillis() + "ms", hold.toMillis() + "ms",
            String.valueOf(messages), bareJson.toString()), dir.resolve("bare.log"));
    Jvms.await(bare, limit);
    List<String> props = new ArrayList<>(Bench.closedLoop(target, level, connections, warmup, hold));
    props.add("-Dstreams=" + kind[1]);
    props.add("-Dmessages=" + messages);
    props.addAll(Profiles.jvmOptions(dir.resolve("gatling.jfr"), warmup));
    Jvms.await(jvms.startGatling("2g", props, "simulations.GrpcStreamingSimulation", dir.resolve("gatling"), dir.resolve("gatling.log")), limit);

    JsonNode b = read(bareJson, "Messages");
    Path run = GatlingResults.newestRun(dir.resolve("gatling"));
    JsonNode g = run == null ? null : read(run.resolve(LatencyRecord.SUMMARY_FILE), kind[1]);
    String problem = b == null ? "bare loop wrote no result" + Jvms.tail(dir.resolve("bare.log"))
        : g == null ? "Gatling wrote no record" + Jvms.tail(dir.resolve("gatling.log"))
        : b.path("ko").asLong() + g.path("ko").asLong() > 0 ? "KO: bare " + b.path("ko").asLong() + " streams, Gatling " + g.path("ko").asLong()
        : null;
    return new Pair(b == null ? 0 : b.get("throughput").asDouble(), g == null ? 0 : g.get("throughput").asDouble(),
        b == null ? 0 : b.path("cpuPerCall").asDouble(), g == null ? 0 : g.path("cpuPerCall").asDouble(),
        g == null ? 0 : g.get("p50").asLong(), g == null ? 0 : g.get("p99").asLong(),
        cpuMicros(Usages.ofBareLoop(bareJson, "Messages", null, server)),
        run == null ? 0 : cpuMicros(Usages.ofGatlingRun(run, kind[1], Duration.ZERO, null, server)), problem);
  }

  private static double cpuMicros(Usages usages) {
    return usages.server() == null ? 0 : usages.server().userMicros() + usages.server().systemMicros();
  }

  private static JsonNode read(Path summary, String name) {
    try {
      return Files.exists(summary) ? JSON.readTree(summary.toFile()).path("requests").get(name) : null;
    } catch (IOException e) {
      return null;
    }
  }

  static String markdown(List<Row> rows, Duration warmup, Duration hold, int pairs) {
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT,
        "Closed loop of streams; each user runs one stream to its end, then the next (bidi: a ping-pong, each message"
            + " sent when the echo of the one before has come); warm-up %s excluded, %s measured; messages received per"
            + " second; %d pairs of runs per row, bare then Gatling, medians (ratio: median and every pair's);"
            + " CPU: each process's CPU µs per message received (the server's from /proc over the same window); server in its own JVM;"
            + " %d cores.%n%n",
        Durations.format(warmup), Durations.format(hold), pairs, Runtime.getRuntime().availableProcessors()));
    md.append("| stream | users | connections | messages per stream | bare msg/s | Gatling msg/s | Gatling / bare | each pair |"
        + " bare CPU µs/msg | Gatling CPU µs/msg | Gatling p50 µs | Gatling p99 µs | server CPU µs/msg, bare run | server CPU µs/msg, Gatling run |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      String each = String.join(", ", r.ratios().stream().map(x -> String.format(Locale.ROOT, "%.2f", x)).toList());
      md.append(String.format(Locale.ROOT, "| %s | %d | %s | %d | %.0f | %.0f | **%.2f** | %s | %.1f | %.1f | %d | %d | %.1f | %.1f |%s%n",
          r.kind(), r.level(), r.connections(), r.messages(), r.bareMessagesPerSecond(), r.gatlingMessagesPerSecond(), r.ratio(),
          each, r.bareCpuPerMessage(), r.gatlingCpuPerMessage(), r.gatlingP50(), r.gatlingP99(),
          r.serverCpuPerMessageBare(), r.serverCpuPerMessageGatling(),
          r.problem() == null ? "" : " " + r.problem()));
    }
    return md.toString();
  }
}
