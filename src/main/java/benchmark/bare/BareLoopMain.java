package benchmark.bare;

import benchmark.Durations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import protocols.core.HostAndPort;

/**
 * Runs a bare loop in its own JVM and writes what it measured in the same JSON form as the bridge's
 * {@code rpc-latency.json}, so that both read alike:
 *
 * <pre>java -cp ... benchmark.bare.BareLoopMain grpc 127.0.0.1:50051 &lt;concurrency> &lt;connections> &lt;warmup> &lt;duration> &lt;out.json></pre>
 */
public final class BareLoopMain {

  private BareLoopMain() {}

  /** A framework's bare client, by framework id. */
  static BareClient open(String framework, HostAndPort target, int connections) throws Exception {
    return switch (framework) {
      case "grpc" -> new GrpcBareClient(target, connections);
      case "rpcx" -> new RpcxBareClient(target, connections);
      default -> throw new IllegalArgumentException("no bare loop for framework '" + framework + "' yet; expected grpc or rpcx");
    };
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 7) {
      System.err.println("usage: BareLoopMain <framework> <host:port> <concurrency> <connections> <warmup> <duration> <out.json>");
      System.exit(2);
    }
    HostAndPort target = HostAndPort.parse(args[1], "target");
    int concurrency = Integer.parseInt(args[2]);
    int connections = Integer.parseInt(args[3]);
    Duration warmup = Durations.parse(args[4], "warmup");
    Duration duration = Durations.parse(args[5], "duration");
    BareLoop.Result result;
    try (BareClient client = open(args[0], target, connections)) {
      result = new BareLoop(client).run(concurrency, warmup, duration);
    }
    Files.writeString(Path.of(args[6]), json(result));
    System.out.printf(Locale.ROOT, "bare %s: %d OK, %d KO, %.0f calls/s%n", args[0], result.ok(), result.ko(), result.throughput());
    System.exit(0);
  }

  static String json(BareLoop.Result r) {
    Histogram h = r.latencies();
    return String.format(
        Locale.ROOT,
        "{\"unit\": \"microseconds\", \"requests\": {\"Say\": {\"count\": %d, \"ok\": %d, \"ko\": %d, \"throughput\": %.1f,"
            + " \"min\": %d, \"mean\": %.1f, \"p50\": %d, \"p90\": %d, \"p99\": %d, \"p999\": %d, \"max\": %d}}}%n",
        r.ok() + r.ko(), r.ok(), r.ko(), r.throughput(), h.getTotalCount() > 0 ? h.getMinValue() : 0, h.getMean(),
        h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
        h.getValueAtPercentile(99.9), h.getTotalCount() > 0 ? h.getMaxValue() : 0);
  }
}
