package benchmark.bare;

import protocols.core.Durations;
import benchmark.LoadSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;

/**
 * Runs a bare loop in its own JVM and writes what it measured in the same JSON form as the bridge's
 * {@code rpc-latency.json}, so that both read alike:
 *
 * <pre>java -cp ... benchmark.bare.BareLoopMain grpc 127.0.0.1:50051 &lt;concurrency> &lt;connections> &lt;warmup> &lt;duration> &lt;out.json></pre>
 *
 * {@code <connections>} reads as a simulation's {@code -Dconnections}: N shared by every chain, or
 * {@code per-user} for one of its own per chain.
 */
public final class BareLoopMain {

  private BareLoopMain() {}

  /** A framework's bare clients against {@code target}, by framework id. */
  static BareClients open(String framework, HostAndPort target) throws Exception {
    return switch (framework) {
      case "grpc" -> (connections, oneChainEach) -> new GrpcBareClient(target, connections);
      case "rpcx" -> (connections, oneChainEach) -> new RpcxBareClient(target, connections, !oneChainEach);
      case "thrift" -> new ThriftBareClient.Selectors(target);
      case "thrift-netty" -> new ThriftNettyBareClient.Loops(target);
      case "dubbo" -> new DubboBareClient.Consumer(target);
      case "motan" -> new MotanBareClient.Callers(target);
      default -> throw new IllegalArgumentException(
          "no bare loop for framework '" + framework + "'; expected grpc, rpcx, thrift, thrift-netty, dubbo or motan");
    };
  }

  public static void main(String[] args) throws Exception {
    allocatorAsGatlings();
    if (args.length != 7) {
      System.err.println("usage: BareLoopMain <grpc|rpcx|thrift|thrift-netty|dubbo|motan> <host:port> <concurrency> <N|per-user> <warmup> <duration> <out.json>");
      System.exit(2);
    }
    HostAndPort target = HostAndPort.parse(args[1], "target");
    int concurrency = Integer.parseInt(args[2]);
    ConnectionModel connections = connections(args[3]);
    Duration warmup = Durations.parse(args[4], "warmup");
    Duration duration = Durations.parse(args[5], "duration");
    BareLoop.Result result;
    try (BareClients clients = open(args[0], target)) {
      result = new BareLoop(clients, connections).run(concurrency, warmup, duration);
    }
    Files.writeString(Path.of(args[6]), json(result));
    System.out.printf(Locale.ROOT, "bare %s: %d OK, %d KO, %.0f calls/s (Netty's allocator: %s)%n", args[0], result.ok(), result.ko(),
        result.throughput(), io.netty.buffer.ByteBufAllocator.DEFAULT.getClass().getSimpleName());
    System.exit(0);
  }

  /**
   * Netty's buffer allocator as Gatling picks it for its JVM: {@code gatling.netty.allocator}, pooled by
   * default, set into {@code io.netty.allocator.type} before any buffer is made. Netty's own default is
   * the adaptive allocator, on which the Netty bare loops ran until 2026-12-04 while the Gatling runs
   * they were compared with wrote every message into pooled buffers.
   */
  static void allocatorAsGatlings() {
    System.setProperty("io.netty.allocator.type", System.getProperty("gatling.netty.allocator", "pooled"));
  }

  static ConnectionModel connections(String text) {
    try {
      return LoadSettings.parseConnections(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "<connections> " + text + ": expected per-user or a positive number of shared connections");
    }
  }

  static String json(BareLoop.Result r) {
    Histogram h = r.latencies();
    return String.format(
        Locale.ROOT,
        "{\"unit\": \"microseconds\", \"requests\": {\"Say\": {\"count\": %d, \"ok\": %d, \"ko\": %d, \"throughput\": %.1f,"
            + " \"min\": %d, \"mean\": %.1f, \"p50\": %d, \"p90\": %d, \"p99\": %d, \"p999\": %d, \"max\": %d,"
            + " \"cpuPerCall\": %.2f}}, \"fromMillis\": %d, \"toMillis\": %d}%n",
        r.ok() + r.ko(), r.ok(), r.ko(), r.throughput(), h.getTotalCount() > 0 ? h.getMinValue() : 0, h.getMean(),
        h.getValueAtPercentile(50), h.getValueAtPercentile(90), h.getValueAtPercentile(99),
        h.getValueAtPercentile(99.9), h.getTotalCount() > 0 ? h.getMaxValue() : 0, r.cpuPerCall(), r.fromMillis(), r.toMillis());
  }
}
