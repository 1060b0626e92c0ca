package benchmark.bench;

import benchmark.BenchmarkMessages;
import protocols.core.Durations;
import benchmark.LoadSettings;
import benchmark.grpc.UnaryCallMessages;
import benchmark.matrix.Framework;
import benchmark.matrix.GatlingResults;
import benchmark.matrix.Jvms;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import protocols.core.HostAndPort;

/**
 * Gatling against each framework's own load clients, on the same server, with the same users,
 * connections, warm-up and duration: ghz and grpc-java's AsyncClient for gRPC, rpcx's Go client for rpcx.
 *
 * <pre>mvn test-compile exec:java@peers -Dpeers=ghz,grpc-java,rpcx -Dlevels=100,1000 -Dconnections=4 [-Druns=3]</pre>
 *
 * Writes {@code peers.md} and {@code peers.json} into {@code -Dout} (default bench/results/peers-<stamp>); with {@code
 * -Dprofile=true}, CPU profiles of grpc-java's AsyncClient and of Gatling, summed up in {@code <peer>/<level>/profile.md}.
 */
public final class Peers {

  /** The one place the ghz version is pinned: it builds with Go 1.26.8. */
  static final String GHZ_VERSION = "v0.121.0";

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * One level of one peer over {@code runs} alternating pairs (the peer, then Gatling): calls/s and
   * latencies (µs) are the medians over the runs, {@code ratio} the median of the pairs' ratios; min and
   * max, the spread.
   */
  public record Row(
      String peer, int level, int connections, int runs, double peerThroughput, double gatlingThroughput,
      double ratio, double ratioMin, double ratioMax,
      long peerP50, long gatlingP50, long peerP99, long gatlingP99, String problem) {

    static Row failed(String peer, int level, int connections, String problem) {
      return new Row(peer, level, connections, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, problem);
    }
  }

  /** One pair's figures: the peer's and Gatling's calls/s and latencies. */
  private record Pair(Figures peer, Figures gatling) {
    double ratio() {
      return peer.throughput() > 0 ? gatling.throughput() / peer.throughput() : 0;
    }
  }

  /** What a load client measured: calls/s and latencies in µs. */
  record Figures(double throughput, long p50, long p99) {}

  /** One level's settings, the same for the peer and for Gatling. */
  record Load(int users, int connections, Duration warmup, Duration hold) {
    Duration limit() {
      return warmup.plus(hold).plusSeconds(180);
    }
  }

  /**
   * A peer's client as {@link Peer#prepare} left it: {@code program}, its executable (or classpath);
   * {@code companion}, what else it needs (ghz's request file, the Go rpcx server); {@code note}, what it
   * is, for the notes under the table.
   */
  record Client(String program, String companion, String note) {}

  /** A framework's own load client, the server both it and Gatling call, and the simulation that does. */
  enum Peer {
    GHZ("ghz", "simulations.GrpcSimulation") {
      @Override
      Client prepare(Path tools) throws Exception {
        Path ghz = Go.install("github.com/bojand/ghz/cmd/ghz", GHZ_VERSION, "ghz");
        Path request = tools.resolve("benchmark-request.bin");
        Files.write(request, BenchmarkMessages.request().toByteArray());
        return new Client(ghz.toString(), request.toString(), "ghz " + GHZ_VERSION + " (Go) calls Hello/Say with the seed's 581-byte message (`-B`, binary) on the Java gRPC"
            + " benchmark server; Gatling runs GrpcSimulation. ghz has no warm-up by time (only `--skipFirst`, a count):"
            + " a ghz run as long as the warm-up goes first and is discarded. ghz's figures are its JSON output's"
            + " (OK calls / its total time; its p50 and p99)");
      }

      @Override
      Process server(Client client, Jvms jvms, HostAndPort target, Path log) throws IOException {
        return grpcServer(jvms, target, log);
      }

      @Override
      Figures measure(Client client, Jvms jvms, HostAndPort target, Load load, Path dir) throws Exception {
        List<String> call = List.of(client.program(), "--insecure", "--proto", Bench.project().resolve("proto/benchmark.proto").toString(),
            "--call", "benchmark.Hello.Say", "-B", client.companion(), "-c", String.valueOf(load.users()),
            "--connections", String.valueOf(load.connections()), "--duration-stop", "ignore");
        if (!load.warmup().isZero()) {
          runGhz(call, load.warmup(), "summary", dir.resolve("ghz-warmup.txt"), dir.resolve("ghz-warmup.log"), target, load);
        }
        Path json = dir.resolve("ghz.json");
        runGhz(call, load.hold(), "json", json, dir.resolve("ghz.log"), target, load);
        if (!Files.exists(json)) {
          throw new PeerFailure("ghz wrote no result" + Jvms.tail(dir.resolve("ghz.log")));
        }
        JsonNode report = ghzSummary(json);
        long ok = report.path("statusCodeDistribution").path("OK").asLong();
        double seconds = report.path("total").asLong() / 1e9;
        JsonNode errors = report.path("errorDistribution");
        Figures figures = new Figures(seconds > 0 ? ok / seconds : 0, ghzPercentile(report, 50), ghzPercentile(report, 99));
        if (errors.size() > 0) {
          throw new PeerFailure("ghz: calls failed: " + errors, figures);
        }
        return figures;
      }
    },

    GRPC_JAVA("grpc-java", "simulations.GrpcUnaryCallSimulation") {
      @Override
      Client prepare(Path tools) throws Exception {
        Path pom = Bench.project().resolve("bench/peers/pom.xml");
        Path classpath = tools.resolve("grpc-benchmarks.classpath");
        if (!Files.exists(classpath) || Files.getLastModifiedTime(classpath).compareTo(Files.getLastModifiedTime(pom)) < 0) {
          String mvn = Bench.onPath("mvn", System.getProperty("maven.home", "") + "/bin/mvn")
              .orElseThrow(() -> new IllegalStateException("mvn not found on the PATH: it resolves grpc-java's benchmark client (" + pom + ")"));
          Bench.runToEnd(List.of(mvn, "-q", "-f", pom.toString(), "dependency:build-classpath", "-Dmdep.outputFile=" + classpath),
              Bench.project(), Map.of(), tools.resolve("grpc-benchmarks-resolve.log"), "resolving " + pom);
        }
        String entries = Files.readString(classpath).trim();
        Matcher version = Pattern.compile("grpc-benchmarks-([^/\\\\]+?)\\.jar").matcher(entries);
        return new Client(entries, null, "grpc-java's AsyncClient (io.grpc:grpc-benchmarks " + (version.find() ? version.group(1) : "?")
            + ", its own classpath, `--directexecutor`) calls grpc.testing.BenchmarkService/UnaryCall with a "
            + UnaryCallMessages.CLIENT_PAYLOAD + "-byte body asking for " + UnaryCallMessages.SERVER_PAYLOAD
            + " bytes back, on the same Java gRPC benchmark server; channels = connections, outstanding RPCs per channel"
            + " = users / connections. Gatling runs GrpcUnaryCallSimulation (the same call and sizes). Warm-up: its own"
            + " `--warmup_duration`; figures as it prints them (QPS, 50%ile and 99%ile)");
      }

      @Override
      Process server(Client client, Jvms jvms, HostAndPort target, Path log) throws IOException {
        return grpcServer(jvms, target, log);
      }

      @Override
      Figures measure(Client client, Jvms jvms, HostAndPort target, Load load, Path dir) throws Exception {
        Path log = dir.resolve("grpc-java.log");
        List<String> options = new ArrayList<>(List.of("-Xmx2g"));
        options.addAll(Profiles.jvmOptions(dir.resolve("grpc-java.jfr"), load.warmup()));
        Process asyncClient = jvms.start(client.program(), options, "io.grpc.benchmarks.qps.AsyncClient",
            List.of("--address=" + target, "--channels=" + load.connections(),
                "--outstanding_rpcs=" + load.users() / load.connections(),
                "--client_payload=" + UnaryCallMessages.CLIENT_PAYLOAD, "--server_payload=" + UnaryCallMessages.SERVER_PAYLOAD,
                "--duration=" + load.hold().toSeconds(), "--warmup_duration=" + load.warmup().toSeconds(), "--directexecutor=true"),
            log);
        Jvms.await(asyncClient, load.limit());
        String printed = Files.readString(log);
        Matcher qps = Pattern.compile("QPS:\\s+(\\d+)").matcher(printed);
        if (!qps.find()) {
          throw new PeerFailure("grpc-java's AsyncClient wrote no result" + Jvms.tail(log));
        }
        Figures figures = new Figures(Double.parseDouble(qps.group(1)), printedMicros(printed, "50"), printedMicros(printed, "99"));
        if (printed.contains("Encountered an error")) {
          throw new PeerFailure("grpc-java's AsyncClient: calls failed (see " + log + ")", figures);
        }
        return figures;
      }
    },

    RPCX("rpcx", "simulations.RpcxSimulation") {
      @Override
      Client prepare(Path tools) throws Exception {
        Path programs = Go.rpcxPrograms();
        Matcher version = Pattern.compile("github.com/smallnest/rpcx (v\\S+)").matcher(Files.readString(Bench.project().resolve("interop/rpcx/go.mod")));
        return new Client(programs.resolve("rpcx-benchmark-client").toString(), programs.resolve("rpcx-benchmark-server").toString(),
            "rpcx's own Go client (rpcx " + (version.find() ? version.group(1) : "?") + ", interop/rpcx"
            + " cmd/rpcx-benchmark-client: users as goroutines sharing the connections) calls Hello.Say with the seed's"
            + " 581-byte message on the real rpcx server (Go, cmd/rpcx-benchmark-server); Gatling runs RpcxSimulation"
            + " against that server. Warm-up: the client's `-warmup`, its calls not counted");
      }

      @Override
      Process server(Client client, Jvms jvms, HostAndPort target, Path log) throws IOException {
        return new ProcessBuilder(client.companion(), "-addr", target.toString()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      }

      @Override
      Figures measure(Client client, Jvms jvms, HostAndPort target, Load load, Path dir) throws Exception {
        Path json = dir.resolve("rpcx-go-client.json");
        Path log = dir.resolve("rpcx-go-client.log");
        Process go = new ProcessBuilder(client.program(), "-s", target.toString(), "-c", String.valueOf(load.users()),
            "-connections", String.valueOf(load.connections()), "-warmup", Durations.format(load.warmup()),
            "-d", Durations.format(load.hold()), "-json", json.toString())
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        Jvms.await(go, load.limit());
        JsonNode say = GatlingResults.measuredIn(json);
        if (say == null) {
          throw new PeerFailure("rpcx's Go client wrote no result" + Jvms.tail(log));
        }
        Figures figures = new Figures(say.get("throughput").asDouble(), say.get("p50").asLong(), say.get("p99").asLong());
        if (say.get("ko").asLong() > 0) {
          throw new PeerFailure("rpcx's Go client: " + say.get("ko").asLong() + " calls failed" + Jvms.tail(log), figures);
        }
        return figures;
      }
    };

    final String id;
    final String simulationClass;

    Peer(String id, String simulationClass) {
      this.id = id;
      this.simulationClass = simulationClass;
    }

    /** Builds or resolves the peer's client (into {@code tools} or target/). */
    abstract Client prepare(Path tools) throws Exception;

    /** Starts the server both the peer and Gatling call, listening on {@code target}. */
    abstract Process server(Client client, Jvms jvms, HostAndPort target, Path log) throws IOException;

    /** Runs the peer's client at one level against {@code target}; its logs and output into {@code dir}. */
    abstract Figures measure(Client client, Jvms jvms, HostAndPort target, Load load, Path dir) throws Exception;

    static Peer byId(String id) {
      return Arrays.stream(values())
          .filter(p -> p.id.equals(id.trim()))
          .findFirst()
          .orElseThrow(() -> new IllegalArgumentException("-Dpeers: unknown peer '" + id + "'; expected some of " + ids()));
    }

    static String ids() {
      return Arrays.stream(values()).map(p -> p.id).collect(Collectors.joining(","));
    }
  }

  /** A peer's run that failed, with what it measured anyway (or null). */
  static final class PeerFailure extends Exception {
    final Figures figures;

    PeerFailure(String message) {
      this(message, null);
    }

    PeerFailure(String message, Figures figures) {
      super(message);
      this.figures = figures;
    }
  }

  public static void main(String[] args) throws Exception {
    execute();
    System.exit(0);
  }

  /** Runs the comparison; returns the folder of its results. */
  public static Path execute() throws Exception {
    List<Peer> peers = Arrays.stream(System.getProperty("peers", Peer.ids()).split(",")).map(Peer::byId).toList();
    List<Integer> levels = LoadSettings.parseLevels(System.getProperty("levels", "100,1000"));
    int connections = positive(System.getProperty("connections", "4"), "-Dconnections");
    Duration warmup = wholeSeconds(Bench.steadyWarmup(), "-Dwarmup");
    Duration hold = wholeSeconds(System.getProperty("hold", "20s"), "-Dhold");
    int runs = Runs.count();
    if (hold.isZero()) {
      throw new IllegalArgumentException("-Dhold=0: expected a positive duration, for example 20s");
    }
    for (int level : levels) {
      if (level < connections) {
        throw new IllegalArgumentException("-Dlevels=" + System.getProperty("levels", "100,1000") + " with -Dconnections=" + connections
            + ": expected every level to be at least the connections (every connection carries a user's calls)");
      }
      if (peers.contains(Peer.GRPC_JAVA) && level % connections != 0) {
        throw new IllegalArgumentException("-Dlevels=" + System.getProperty("levels", "100,1000") + " with -Dconnections=" + connections
            + ": expected every level to be a multiple of the connections: grpc-java's AsyncClient runs channels x outstanding"
            + " RPCs per channel (or leave grpc-java out of -Dpeers)");
      }
    }
    Path out = Bench.out("peers");
    Path tools = Files.createDirectories(Bench.project().resolve("target/tools"));
    Jvms jvms = new Jvms();
    List<Row> rows = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Map<Peer, Client> ready = new LinkedHashMap<>();
    for (Peer peer : peers) {
      try {
        Client client = peer.prepare(tools);
        notes.add("- **" + peer.id + "**: " + client.note() + ".");
        ready.put(peer, client);
      } catch (Exception e) {
        String reason = peer.id + " could not be prepared: " + e.getMessage();
        notes.add("- **" + peer.id + "**: " + reason);
        levels.forEach(level -> rows.add(Row.failed(peer.id, level, connections, reason)));
      }
    }
    Bench.eachServer(List.copyOf(ready.keySet()), p -> p.id, (peer, target, log) -> peer.server(ready.get(peer), jvms, target, log), out,
        (peer, target, dir) -> {
          for (int level : levels) {
            rows.add(measure(jvms, peer, ready.get(peer), target, new Load(level, connections, warmup, hold), runs, dir.resolve(String.valueOf(level))));
          }
          return peer.id + " measured";
        },
        (peer, reason) -> {
          levels.forEach(level -> rows.add(Row.failed(peer.id, level, connections, reason)));
          return reason;
        });
    JSON.writerWithDefaultPrettyPrinter().writeValue(out.resolve("peers.json").toFile(), rows);
    Files.writeString(out.resolve("peers.md"), markdown(rows, notes, connections, warmup, hold) + "\n" + MachineReference.line() + "\n");
    System.out.println(Files.readString(out.resolve("peers.md")));
    return out;
  }

  /** {@code runs} rounds of the peer's client then Gatling (in {@code run-<i>/}), at one level against the same running server. */
  static Row measure(Jvms jvms, Peer peer, Client client, HostAndPort target, Load load, int runs, Path dir) throws Exception {
    List<Pair> pairs = new ArrayList<>();
    List<String> problems = new ArrayList<>();
    for (int run = 1; run <= runs; run++) {
      Path runDir = Files.createDirectories(dir.resolve("run-" + run));
      String prefix = runs > 1 ? "run " + run + ": " : "";
      Figures p;
      try {
        p = peer.measure(client, jvms, target, load, runDir);
      } catch (PeerFailure e) {
        p = e.figures;
        problems.add(prefix + e.getMessage());
      }
      List<String> gatlingOptions = new ArrayList<>(Bench.closedLoop(target, load.users(), String.valueOf(load.connections()), load.warmup(), load.hold()));
      gatlingOptions.addAll(Profiles.jvmOptions(runDir.resolve("gatling.jfr"), load.warmup()));
      Jvms.await(jvms.startGatling("2g", gatlingOptions, peer.simulationClass, runDir.resolve("gatling"), runDir.resolve("gatling.log")), load.limit());
      JsonNode g = GatlingResults.measured(GatlingResults.newestRun(runDir.resolve("gatling")));
      if (g == null) {
        problems.add(prefix + "Gatling wrote no record" + Jvms.tail(runDir.resolve("gatling.log")));
      } else if (g.get("ko").asLong() > 0) {
        problems.add(prefix + "Gatling: " + g.get("ko").asLong() + " calls failed");
      }
      if (p != null && g != null && p.throughput() * g.get("throughput").asDouble() == 0) {
        problems.add(prefix + "a side measured no call (peer " + p.throughput() + " calls/s, Gatling " + g.get("throughput").asDouble() + "): left out");
      } else if (p != null && g != null) {
        pairs.add(new Pair(p, new Figures(g.get("throughput").asDouble(), g.get("p50").asLong(), g.get("p99").asLong())));
      }
    }
    if (Profiles.enabled()) {
      List<String> lines = new ArrayList<>();
      for (int run = 1; run <= runs; run++) {
        Path runDir = dir.resolve("run-" + run);
        if (peer == Peer.GRPC_JAVA) {
          lines.add(Profiles.summary("run " + run + ", grpc-java's AsyncClient", runDir.resolve("grpc-java.jfr")));
        }
        lines.add(Profiles.summary("run " + run + ", Gatling", runDir.resolve("gatling.jfr")));
      }
      Files.writeString(dir.resolve("profile.md"), "CPU samples against " + peer.id + " at " + load.users() + " users, by the innermost frame"
          + " that is not the JDK's (benchmark.bench.Profiles; only grpc-java's client is a JVM to profile):\n\n" + String.join("\n", lines) + "\n");
    }
    Runs.Spread ratio = Runs.of(pairs, Pair::ratio);
    return new Row(peer.id, load.users(), load.connections(), pairs.size(),
        Runs.of(pairs, q -> q.peer().throughput()).median(), Runs.of(pairs, q -> q.gatling().throughput()).median(),
        ratio.median(), ratio.min(), ratio.max(),
        (long) Runs.of(pairs, q -> q.peer().p50()).median(), (long) Runs.of(pairs, q -> q.gatling().p50()).median(),
        (long) Runs.of(pairs, q -> q.peer().p99()).median(), (long) Runs.of(pairs, q -> q.gatling().p99()).median(),
        problems.isEmpty() ? null : String.join("; ", problems));
  }

  static String markdown(List<Row> rows, List<String> notes, int connections, Duration warmup, Duration hold) {
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT,
        "Closed loop: at each level the peer's client, then Gatling, against the same server process (started fresh"
            + " for each peer), with the same users and %d shared connections; warm-up %s excluded, %s measured; %d cores."
            + " Each figure: the median over the runs, alternating the peer and Gatling; in brackets, the lowest and highest run.%n%n",
        connections, Durations.format(warmup), Durations.format(hold), Runtime.getRuntime().availableProcessors()));
    md.append("| peer | users | connections | runs | peer calls/s | Gatling calls/s | Gatling / peer | peer p50 µs | Gatling p50 µs | peer p99 µs | Gatling p99 µs |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %.0f | %.0f | **%s** | %d | %d | %d | %d |%s%n",
          r.peer(), r.level(), r.connections(), r.runs(), r.peerThroughput(), r.gatlingThroughput(),
          new Runs.Spread(r.ratio(), r.ratioMin(), r.ratioMax()).format("%.2f"), r.peerP50(),
          r.gatlingP50(), r.peerP99(), r.gatlingP99(), r.problem() == null ? "" : " " + r.problem()));
    }
    md.append("\n");
    notes.forEach(note -> md.append(note).append('\n'));
    return md.toString();
  }

  private static Process grpcServer(Jvms jvms, HostAndPort target, Path log) throws IOException {
    return jvms.start(List.of("-Xmx2g"), Framework.byId("grpc").serverMainClass(), List.of("--port", String.valueOf(target.port())), log);
  }

  private static void runGhz(List<String> call, Duration duration, String format, Path output, Path log, HostAndPort target, Load load)
      throws IOException, InterruptedException {
    List<String> command = new ArrayList<>(call);
    command.addAll(List.of("-z", Durations.format(duration), "-O", format, "-o", output.toString(), target.toString()));
    Process ghz = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    Jvms.await(ghz, load.limit());
  }

  /** ghz's JSON report without its "details" (one entry per call: tens of MB at high rates). */
  private static JsonNode ghzSummary(Path json) throws IOException {
    ObjectNode summary = JSON.createObjectNode();
    try (JsonParser parser = JSON.getFactory().createParser(json.toFile())) {
      if (parser.nextToken() != JsonToken.START_OBJECT) {
        throw new IOException(json + ": expected ghz's JSON report, an object");
      }
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        String field = parser.currentName();
        parser.nextToken();
        if (field.equals("details")) {
          parser.skipChildren();
        } else {
          summary.set(field, JSON.readTree(parser));
        }
      }
    }
    return summary;
  }

  /** ghz's latency at {@code percentage} (nanoseconds in its JSON) in µs, or 0. */
  private static long ghzPercentile(JsonNode report, int percentage) {
    for (JsonNode bucket : report.path("latencyDistribution")) {
      if (bucket.path("percentage").asInt() == percentage) {
        return bucket.path("latency").asLong() / 1000;
      }
    }
    return 0;
  }

  /** AsyncClient's printed "NN%ile Latency (in micros):" value, or 0. */
  private static long printedMicros(String printed, String percentile) {
    Matcher m = Pattern.compile("(?m)^" + percentile + "%ile Latency \\(in micros\\):\\s+(\\d+)").matcher(printed);
    return m.find() ? Long.parseLong(m.group(1)) : 0;
  }

  private static int positive(String text, String what) {
    try {
      int value = Integer.parseInt(text.trim());
      if (value > 0) {
        return value;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(what + "=" + text + ": expected a positive number of shared connections, for example 4");
  }

  /** grpc-java's AsyncClient takes whole seconds: so do all peers, to run the same durations. */
  private static Duration wholeSeconds(String text, String what) {
    return wholeSeconds(Durations.parse(text, what), what);
  }

  private static Duration wholeSeconds(Duration d, String what) {
    if (d.toMillis() % 1000 != 0) {
      throw new IllegalArgumentException(what + "=" + Durations.format(d) + ": expected whole seconds (grpc-java's AsyncClient takes seconds), for example 5s");
    }
    return d;
  }
}
