package benchmark.motan;

import benchmark.BenchmarkMessages;
import benchmark.BenchmarkServer;
import protocols.core.Durations;
import benchmark.ServiceTime;
import benchmark.ServerArgs;
import java.time.Duration;

/**
 * The seed's Motan benchmark provider: {@link BenchmarkService#say} decodes the BenchmarkMessage, sets
 * field1 "OK" and field2 100 and re-encodes it, after an optional service time.
 *
 * <p>Motan 1.2 providers are synchronous: Motan runs each call on its worker pool (here 200 threads and
 * a queue of {@value #WORKER_QUEUE} calls, so the 5000-user level is queued rather than rejected). A
 * service time therefore sleeps on a worker thread (never on a Netty I/O thread), and with a service
 * time t the provider serves at most 200 / t calls per second.
 *
 * <p>As its own process: {@code mvn -q compile exec:java -Dexec.mainClass=benchmark.motan.MotanBenchmarkServer
 * -Dexec.args="--port 8002 --service-time 0"}; embedded by {@link #start}.
 */
public final class MotanBenchmarkServer implements BenchmarkServer {

  static final int WORKER_THREADS = 200;
  static final int WORKER_QUEUE = 20_000;

  private final MotanProvider<BenchmarkService> provider;

  private MotanBenchmarkServer(MotanProvider<BenchmarkService> provider) {
    this.provider = provider;
  }

  /** Starts on {@code port} (0 picks a free one). */
  public static MotanBenchmarkServer start(int port, Duration serviceTime) {
    return start(port, serviceTime, null);
  }

  /** As above, registered in {@code registry} ({@code zookeeper://host:port}) unless it is null. */
  public static MotanBenchmarkServer start(int port, Duration serviceTime, String registry) {
    MotanProvider.Options options = MotanProvider.options().port(port).workers(WORKER_THREADS, WORKER_QUEUE);
    return new MotanBenchmarkServer(
        MotanProvider.export(
            BenchmarkService.class, new Say(serviceTime), registry == null ? options : options.registry(registry)));
  }

  @Override
  public int port() {
    return provider.port();
  }

  @Override
  public void close() throws InterruptedException {
    provider.close();
  }

  static final class Say implements BenchmarkService {
    private final long serviceTimeNanos;

    Say(Duration serviceTime) {
      this.serviceTimeNanos = serviceTime.toNanos();
    }

    @Override
    public byte[] say(byte[] message) {
      byte[] reply = BenchmarkMessages.reply(message);
      long waitNanos = ServiceTime.blockingNanos(serviceTimeNanos);
      if (waitNanos > 0) {
        long due = System.nanoTime() + waitNanos;
        try {
          Thread.sleep(waitNanos / 1_000_000, (int) (waitNanos % 1_000_000));
          ServiceTime.replied(due);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
      return reply;
    }
  }

  public static void main(String[] args) throws Exception {
    ServerArgs options = ServerArgs.parseOrExit(args, 8002);
    MotanBenchmarkServer server = start(options.port(), options.serviceTime());
    BenchmarkServer.serveUntilStopped(
        server,
        "Motan benchmark provider listening on port "
            + server.port()
            + " of every interface (Motan 1.2 ignores --host "
            + options.host()
            + "), service "
            + BenchmarkService.class.getName()
            + ", group default_rpc, version 1.0 (service time "
            + Durations.format(options.serviceTime())
            + ")");
  }
}
