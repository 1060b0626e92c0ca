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
 * benchmark server JVM, with the same users, channels, messages per stream and durations.
 *
 * <pre>mvn test-compile exec:java@streaming -Dlevels=100 -Dconnections=4 -Dmessages=100 -Dwarmup=5s -Dhold=20s</pre>
 *
 * Writes {@code streaming.md} and {@code streaming.json} into {@code -Dout} (default bench/results/streaming-<stamp>).
 */
public final class StreamingOverhead {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One kind of stream at one level: received messages/s of each way of streaming. */
  public record Row(
      String kind, int level, String connections, int messages, double bareMessagesPerSecond,
      double gatlingMessagesPerSecond, double ratio, long gatlingP50, long gatlingP99, String problem) {}

  /** The stream kinds measured: what the bare loop calls them, and the simulation's request name. */
  private static final List<String[]> KINDS = List.of(new String[] {"server", "ServerStream"}, new String[] {"bidi", "BidiStream"});

  public static void main(String[] args) throws Exception {
    execute();
    System.exit(0);
  }

  public static Path execute() throws Exception {
    List<Integer> levels = LoadSettings.parseLevels(System.getProperty("levels", "100"));
    String connections = System.getProperty("connections", "4").trim();
    LoadSettings.parseConnections(connections); // validates
    int messages = Integer.parseInt(System.getProperty("messages", "100"));
    Duration warmup = Durations.parse(System.getProperty("warmup", "5s"), "-Dwarmup");
    Duration hold = Durations.parse(System.getProperty("hold", "20s"), "-Dhold");
    Path out = Bench.out("streaming");
    Jvms jvms = new Jvms();
    List<Row> rows = new ArrayList<>();
    Bench.eachFramework(jvms, List.of(Framework.byId("grpc")), out, "2g", List.of(),
        (framework, target, dir) -> {
          for (int level : levels) {
            for (String[] kind : KINDS) {
              rows.add(measure(jvms, kind, target, level, connections, messages, warmup, hold, dir.resolve(kind[0] + "-" + level)));
            }
          }
          return "grpc streams measured";
        },
        (framework, reason) -> {
          levels.forEach(level -> KINDS.forEach(kind -> rows.add(new Row(kind[1], level, connections, messages, 0, 0, 0, 0, 0, reason))));
          return reason;
        });
    JSON.writerWithDefaultPrettyPrinter().writeValue(out.resolve("streaming.json").toFile(), rows);
    Files.writeString(out.resolve("streaming.md"), markdown(rows, warmup, hold));
    System.out.println(Files.readString(out.resolve("streaming.md")));
    return out;
  }

  private static Row measure(
      Jvms jvms, String[] kind, HostAndPort target, int level, String connections, int messages, Duration warmup, Duration hold, Path dir)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Duration limit = warmup.plus(hold).plusSeconds(180);
    Path bareJson = dir.resolve("bare.json");
    Process bare = jvms.start(List.of("-Xmx2g"), "benchmark.bare.GrpcStreamLoop",
        List.of(kind[0], target.toString(), String.valueOf(level), connections, warmup.toMillis() + "ms", hold.toMillis() + "ms",
            String.valueOf(messages), bareJson.toString()), dir.resolve("bare.log"));
    Jvms.await(bare, limit);
    List<String> props = new ArrayList<>(Bench.closedLoop(target, level, connections, warmup, hold));
    props.add("-Dstreams=" + kind[1]);
    props.add("-Dmessages=" + messages);
    Jvms.await(jvms.startGatling("2g", props, "simulations.GrpcStreamingSimulation", dir.resolve("gatling"), dir.resolve("gatling.log")), limit);

    JsonNode b = read(bareJson, "Messages");
    Path run = GatlingResults.newestRun(dir.resolve("gatling"));
    JsonNode g = run == null ? null : read(run.resolve(LatencyRecord.SUMMARY_FILE), kind[1]);
    String problem = b == null ? "bare loop wrote no result" + Jvms.tail(dir.resolve("bare.log"))
        : g == null ? "Gatling wrote no record" + Jvms.tail(dir.resolve("gatling.log"))
        : b.path("ko").asLong() + g.path("ko").asLong() > 0 ? "KO: bare " + b.path("ko").asLong() + " streams, Gatling " + g.path("ko").asLong()
        : null;
    double bt = b == null ? 0 : b.get("throughput").asDouble();
    double gt = g == null ? 0 : g.get("throughput").asDouble();
    return new Row(kind[1], level, connections, messages, bt, gt, bt > 0 ? gt / bt : 0,
        g == null ? 0 : g.get("p50").asLong(), g == null ? 0 : g.get("p99").asLong(), problem);
  }

  private static JsonNode read(Path summary, String name) {
    try {
      return Files.exists(summary) ? JSON.readTree(summary.toFile()).path("requests").get(name) : null;
    } catch (IOException e) {
      return null;
    }
  }

  static String markdown(List<Row> rows, Duration warmup, Duration hold) {
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT,
        "Closed loop of streams; each user runs one stream to its end, then the next; warm-up %s excluded, %s measured;"
            + " messages received per second; server in its own JVM; %d cores.%n%n",
        Durations.format(warmup), Durations.format(hold), Runtime.getRuntime().availableProcessors()));
    md.append("| stream | users | connections | messages per stream | bare msg/s | Gatling msg/s | Gatling / bare | Gatling p50 µs | Gatling p99 µs |\n");
    md.append("|---|---|---|---|---|---|---|---|---|\n");
    for (Row r : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %d | %s | %d | %.0f | %.0f | **%.2f** | %d | %d |%s%n",
          r.kind(), r.level(), r.connections(), r.messages(), r.bareMessagesPerSecond(), r.gatlingMessagesPerSecond(), r.ratio(),
          r.gatlingP50(), r.gatlingP99(), r.problem() == null ? "" : " " + r.problem()));
    }
    return md.toString();
  }
}
