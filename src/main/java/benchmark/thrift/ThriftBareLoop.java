package benchmark.thrift;

import benchmark.Durations;
import benchmark.thrift.gen.BenchmarkMessage;
import benchmark.thrift.gen.Greeter;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.thrift.async.AsyncMethodCallback;
import org.apache.thrift.async.TAsyncClientManager;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TNonblockingSocket;
import protocols.core.HostAndPort;

/**
 * The Thrift benchmark without Gatling: {@code c} connections, each calling {@code Greeter.say} again
 * as soon as its reply arrives (closed model), on the same async client library and server as {@code
 * ThriftSimulation}. What the machine can do without the load tool: compare its throughput with the
 * simulation's at the same concurrency, on the same machine, to see what Gatling costs.
 *
 * <p>{@code mvn -q compile exec:java -Dexec.mainClass=benchmark.thrift.ThriftBareLoop
 * -Dexec.args="--concurrency 100 --duration 20s [--target host:port] [--selector-threads 2]"} (without
 * --target it starts the benchmark server in this JVM, as the simulation does).
 */
public final class ThriftBareLoop {

  public static void main(String[] args) throws Exception {
    int concurrency = 100;
    Duration duration = Duration.ofSeconds(20);
    HostAndPort target = null;
    int selectorThreads = 2;
    for (int i = 0; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--concurrency" -> concurrency = Integer.parseInt(args[i + 1]);
        case "--duration" -> duration = Durations.parse(args[i + 1], "--duration");
        case "--target" -> target = HostAndPort.parse(args[i + 1], "--target");
        case "--selector-threads" -> selectorThreads = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException(
            args[i] + ": unknown option; expected --concurrency, --duration, --target or --selector-threads");
      }
    }
    ThriftBenchmarkServer server = null;
    if (target == null) {
      server = ThriftBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO);
      target = new HostAndPort("127.0.0.1", server.port());
    }
    try {
      run(target, concurrency, duration, selectorThreads);
    } finally {
      if (server != null) {
        server.close();
      }
    }
  }

  static void run(HostAndPort target, int concurrency, Duration duration, int selectorThreads)
      throws Exception {
    List<TAsyncClientManager> managers = new ArrayList<>();
    for (int i = 0; i < selectorThreads; i++) {
      managers.add(new TAsyncClientManager());
    }
    BenchmarkMessage request = ThriftBenchmarkMessages.request();
    Recorder recorder = new Recorder(3);
    LongAdder errors = new LongAdder();
    long endNanos = System.nanoTime() + duration.toNanos();
    CountDownLatch finished = new CountDownLatch(concurrency);
    List<Greeter.AsyncClient> clients = new ArrayList<>();
    for (int i = 0; i < concurrency; i++) {
      SocketChannel channel = SocketChannel.open(new InetSocketAddress(target.host(), target.port()));
      clients.add(
          new Greeter.AsyncClient(
              new TBinaryProtocol.Factory(),
              managers.get(i % managers.size()),
              new TNonblockingSocket(channel)));
    }
    long start = System.nanoTime();
    for (Greeter.AsyncClient client : clients) {
      new Loop(client, request, recorder, errors, endNanos, finished).next();
    }
    finished.await(duration.toSeconds() + 30, TimeUnit.SECONDS);
    double seconds = (System.nanoTime() - start) / 1e9;
    Histogram h = recorder.getIntervalHistogram();
    System.out.printf(
        Locale.ROOT,
        "bare Thrift loop: concurrency %d, %d selector thread(s), %.1f s: %d calls, %d errors, %.0f calls/s,"
            + " latency us: mean %.0f, p50 %d, p99 %d, max %d%n",
        concurrency,
        selectorThreads,
        seconds,
        h.getTotalCount(),
        errors.sum(),
        h.getTotalCount() / seconds,
        h.getMean(),
        h.getValueAtPercentile(50),
        h.getValueAtPercentile(99),
        h.getMaxValue());
    managers.forEach(TAsyncClientManager::stop);
  }

  /** One connection calling again as soon as its reply arrives, until the end. */
  private record Loop(
      Greeter.AsyncClient client,
      BenchmarkMessage request,
      Recorder recorder,
      LongAdder errors,
      long endNanos,
      CountDownLatch finished) {

    void next() {
      if (System.nanoTime() >= endNanos) {
        finished.countDown();
        return;
      }
      long sent = System.nanoTime();
      try {
        client.say(
            request,
            new AsyncMethodCallback<>() {
              @Override
              public void onComplete(BenchmarkMessage reply) {
                recorder.recordValue((System.nanoTime() - sent) / 1000);
                if (!ThriftBenchmarkMessages.isOk(reply)) {
                  errors.increment();
                }
                next();
              }

              @Override
              public void onError(Exception e) {
                errors.increment();
                finished.countDown(); // the async client is closed after an error: this loop ends
              }
            });
      } catch (Exception e) {
        errors.increment();
        finished.countDown();
      }
    }
  }
}
