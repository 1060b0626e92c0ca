package benchmark.thrift;

import benchmark.BenchmarkServer;
import benchmark.Durations;
import benchmark.ServerArgs;
import benchmark.ServiceTime;
import benchmark.thrift.gen.BenchmarkMessage;
import benchmark.thrift.gen.Greeter;
import java.net.InetSocketAddress;
import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.async.AsyncMethodCallback;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadedSelectorServer;
import org.apache.thrift.transport.TNonblockingServerSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * The seed's Thrift benchmark server: {@code Greeter.say} answers with field1 "OK" and field2 100,
 * after an optional service time. As in the seed, a {@link TThreadedSelectorServer} over a {@link
 * TNonblockingServerSocket}, framed transport (the non-blocking servers always frame), binary protocol,
 * 2 selector threads.
 *
 * <p>Worker threads: none (the seed had 512 on 24 cores): calls are decoded, answered and encoded on
 * the 2 selector threads. On 2 cores that is the efficient choice: the handler never blocks (it is
 * asynchronous and its service time runs on a timer), so a worker pool would only add a hand-off and
 * context switches per call.
 *
 * <p>Thrift 0.17's selector threads carry a detector for an old JDK "epoll bug" (THRIFT-4251): 513
 * wake-ups with no socket ready within a second make a selector thread rebuild its selector, and the
 * rebuild re-registers only the connections ready at that instant, silently orphaning all others:
 * their calls are never answered. Any rush of connections sets it off (each accepted connection wakes
 * a selector), as do replies handed back by other threads. The bug it works around was fixed in the JDK
 * long ago, so this server turns the detector off ({@link SelectorsThatKeepTheirConnections}).
 *
 * <p>As its own process: {@code mvn -q compile exec:java -Dexec.mainClass=benchmark.thrift.ThriftBenchmarkServer
 * -Dexec.args="--port 9090 --service-time 0"}, or embedded by {@link #start}.
 */
public final class ThriftBenchmarkServer implements BenchmarkServer {

  public static final int DEFAULT_PORT = 9090;
  static final int SELECTOR_THREADS = 2;
  /**
   * Connections waiting to be accepted (capped by the kernel's somaxconn). Java's default of 50 makes
   * the kernel drop the SYNs of thousands of users connecting at once, and they retry 1 s, 3 s later.
   */
  static final int ACCEPT_BACKLOG = 4096;

  private final TNonblockingServerSocket socket;
  private final TServer server;
  private final Thread serving;

  private ThriftBenchmarkServer(TNonblockingServerSocket socket, TServer server, Thread serving) {
    this.socket = socket;
    this.server = server;
    this.serving = serving;
  }

  /** Starts on {@code host:port}; port 0 picks a free one. Returns once the server accepts calls. */
  public static ThriftBenchmarkServer start(String host, int port, Duration serviceTime)
      throws TTransportException, InterruptedException {
    TNonblockingServerSocket socket =
        new TNonblockingServerSocket(
            new TNonblockingServerSocket.NonblockingAbstractServerSocketArgs()
                .bindAddr(new InetSocketAddress(host, port))
                .backlog(ACCEPT_BACKLOG));
    TThreadedSelectorServer.Args args =
        new TThreadedSelectorServer.Args(socket)
            .selectorThreads(SELECTOR_THREADS)
            // no worker pool (see above); Thrift 0.17's stop() fails on a null pool, so an inline one
            .executorService(new InlineExecutor())
            .protocolFactory(new TBinaryProtocol.Factory())
            .processor(new Greeter.AsyncProcessor<>(new GreeterService(serviceTime)));
    TServer server = new SelectorsThatKeepTheirConnections(args);
    Thread serving = new Thread(server::serve, "thrift-benchmark-server");
    serving.setDaemon(true);
    serving.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!server.isServing()) {
      if (!serving.isAlive() || System.nanoTime() > deadline) {
        server.stop();
        socket.close();
        throw new TTransportException("the Thrift benchmark server did not start on " + host + ":" + port);
      }
      Thread.sleep(5);
    }
    return new ThriftBenchmarkServer(socket, server, serving);
  }

  @Override
  public int port() {
    return socket.getPort();
  }

  @Override
  public void close() throws InterruptedException {
    server.stop();
    serving.join(TimeUnit.SECONDS.toMillis(5));
    socket.close();
  }

  /**
   * A TThreadedSelectorServer whose selector threads never rebuild their selector (see the class
   * comment). Its threshold is a private field of libthrift's, set here between the creation of the
   * selector threads and their start: if a libthrift version lacks it, the server refuses to start.
   */
  static final class SelectorsThatKeepTheirConnections extends TThreadedSelectorServer {
    static final String THRESHOLD_FIELD = "SELECTOR_AUTO_REBUILD_THRESHOLD";

    SelectorsThatKeepTheirConnections(Args args) {
      super(args);
    }

    @Override
    protected SelectorThreadLoadBalancer createSelectorThreadLoadBalancer(
        Collection<? extends SelectorThread> threads) {
      for (SelectorThread thread : threads) {
        neverRebuild(thread);
      }
      return super.createSelectorThreadLoadBalancer(threads);
    }

    static void neverRebuild(SelectorThread thread) {
      try {
        Field threshold = SelectorThread.class.getDeclaredField(THRESHOLD_FIELD);
        threshold.setAccessible(true);
        threshold.setInt(thread, Integer.MAX_VALUE);
      } catch (ReflectiveOperationException | RuntimeException e) {
        throw new IllegalStateException(
            "cannot turn off libthrift's selector rebuild (field SelectorThread."
                + THRESHOLD_FIELD
                + " of libthrift 0.17): this libthrift differs, check THRIFT-4251's rebuild before"
                + " benchmarking with it",
            e);
      }
    }
  }

  /** Runs each call where it is handed over: on the selector thread. */
  private static final class InlineExecutor extends AbstractExecutorService {
    private volatile boolean shutdown;

    @Override
    public void execute(Runnable command) {
      command.run();
    }

    @Override
    public void shutdown() {
      shutdown = true;
    }

    @Override
    public List<Runnable> shutdownNow() {
      shutdown = true;
      return List.of();
    }

    @Override
    public boolean isShutdown() {
      return shutdown;
    }

    @Override
    public boolean isTerminated() {
      return shutdown;
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
      return shutdown;
    }
  }

  /** Greeter.say, asynchronous: the reply is sent after the service time without holding a thread. */
  static final class GreeterService implements Greeter.AsyncIface {
    private final Duration serviceTime;

    GreeterService(Duration serviceTime) {
      this.serviceTime = serviceTime;
    }

    @Override
    public void say(BenchmarkMessage request, AsyncMethodCallback<BenchmarkMessage> reply) {
      BenchmarkMessage answer = ThriftBenchmarkMessages.reply(request);
      ServiceTime.after(serviceTime, () -> reply.onComplete(answer));
    }
  }

  public static void main(String[] args) throws Exception {
    ServerArgs options = ServerArgs.parseOrExit(args, DEFAULT_PORT);
    ThriftBenchmarkServer server = start(options.host(), options.port(), options.serviceTime());
    BenchmarkServer.serveUntilStopped(
        server,
        "Thrift benchmark server (framed, binary) listening on "
            + options.host()
            + ":"
            + server.port()
            + " (service time "
            + Durations.format(options.serviceTime())
            + ")");
  }
}
