package benchmark.thrift;

import benchmark.BenchmarkServer;
import protocols.core.Durations;
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
import java.util.ArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.thrift.TMultiplexedProcessor;
import org.apache.thrift.TProcessor;
import org.apache.thrift.async.AsyncMethodCallback;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadPoolServer;
import org.apache.thrift.server.TThreadedSelectorServer;
import org.apache.thrift.transport.TNonblockingServerSocket;
import org.apache.thrift.transport.TServerSocket;
import org.apache.thrift.transport.TServerTransport;
import org.apache.thrift.transport.TTransportException;
import io.netty.util.concurrent.DefaultThreadFactory;
import protocols.thrift.ThriftEncoding;
import protocols.thrift.ThriftTransport;

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
 * <p>{@link Options} serve the other variants a Thrift client may expect: the compact protocol, a
 * {@link TMultiplexedProcessor} registering Greeter under a service name (then the handler is the
 * synchronous {@code Greeter.Iface}, on worker threads when there is a service time), and the buffered
 * transport, which the non-blocking servers cannot do: then it is libthrift's {@link TThreadPoolServer},
 * one thread per connection, on a plain server socket.
 *
 * <p>As its own process: {@code mvn -q compile exec:java -Dexec.mainClass=benchmark.thrift.ThriftBenchmarkServer
 * -Dexec.args="--port 9090 --service-time 0 [--transport framed|buffered] [--protocol binary|compact]
 * [--service NAME]"}, or embedded by {@link #start}.
 */
public final class ThriftBenchmarkServer implements BenchmarkServer {

  public static final int DEFAULT_PORT = 9090;
  static final int SELECTOR_THREADS = 2;
  /**
   * Connections waiting to be accepted (capped by the kernel's somaxconn). Java's default of 50 makes
   * the kernel drop the SYNs of thousands of users connecting at once, and they retry 1 s, 3 s later.
   */
  static final int ACCEPT_BACKLOG = 4096;

  /**
   * The transport, protocol and multiplexed service name (null: not multiplexed) the server speaks.
   * {@link #DEFAULT} is the seed's: framed, binary, not multiplexed.
   */
  public record Options(ThriftTransport transport, ThriftEncoding encoding, String service) {
    public static final Options DEFAULT = new Options(ThriftTransport.FRAMED, ThriftEncoding.BINARY, null);

    /** As ThriftSimulation reads them: {@code -Dtransport=framed|buffered -Dprotocol=binary|compact -Dservice=NAME}. */
    public static Options fromSystemProperties() {
      String service = System.getProperty("service", "").trim();
      return new Options(
          ThriftTransport.parse(System.getProperty("transport", "framed"), "-Dtransport"),
          ThriftEncoding.parse(System.getProperty("protocol", "binary"), "-Dprotocol"),
          service.isEmpty() ? null : service);
    }

    @Override
    public String toString() {
      return transport.label() + ", " + encoding.label() + (service == null ? "" : ", multiplexed as " + service);
    }
  }

  private final TServerTransport socket;
  private final int port;
  private final TServer server;
  private final Thread serving;
  private final ExecutorService workers; // null: none

  private ThriftBenchmarkServer(TServerTransport socket, int port, TServer server, Thread serving, ExecutorService workers) {
    this.socket = socket;
    this.port = port;
    this.server = server;
    this.serving = serving;
    this.workers = workers;
  }

  /** Starts on {@code host:port}; port 0 picks a free one. Returns once the server accepts calls. */
  public static ThriftBenchmarkServer start(String host, int port, Duration serviceTime)
      throws TTransportException, InterruptedException {
    return start(host, port, serviceTime, Options.DEFAULT);
  }

  /** The same, speaking {@code options}' transport, protocol and service name. */
  public static ThriftBenchmarkServer start(String host, int port, Duration serviceTime, Options options)
      throws TTransportException, InterruptedException {
    InetSocketAddress address = new InetSocketAddress(host, port);
    ExecutorService workers = null;
    TServerTransport socket;
    int boundPort;
    TServer server;
    if (options.transport() == ThriftTransport.BUFFERED) {
      TServerSocket blocking =
          new TServerSocket(new TServerSocket.ServerSocketTransportArgs().bindAddr(address).backlog(ACCEPT_BACKLOG));
      socket = blocking;
      boundPort = blocking.getServerSocket().getLocalPort();
      server =
          new TThreadPoolServer(
              new TThreadPoolServer.Args(blocking)
                  .minWorkerThreads(SELECTOR_THREADS)
                  .protocolFactory(options.encoding().factory())
                  .processor(syncProcessor(serviceTime, options.service())));
    } else {
      TNonblockingServerSocket nonblocking =
          new TNonblockingServerSocket(
              new TNonblockingServerSocket.NonblockingAbstractServerSocketArgs()
                  .bindAddr(address)
                  .backlog(ACCEPT_BACKLOG));
      socket = nonblocking;
      boundPort = nonblocking.getPort();
      boolean sleeps = options.service() != null && !serviceTime.isZero();
      if (sleeps) {
        workers = Executors.newFixedThreadPool(64, new DefaultThreadFactory("thrift-benchmark-worker", true));
      }
      TThreadedSelectorServer.Args args =
          selectorArgs(nonblocking)
              // no worker pool (see above) unless a synchronous handler sleeps; Thrift 0.17's stop()
              // fails on a null pool, so an inline one
              .executorService(sleeps ? workers : new InlineExecutor())
              .protocolFactory(options.encoding().factory())
              .processor(
                  options.service() == null
                      ? new Greeter.AsyncProcessor<>(new GreeterService(serviceTime))
                      : syncProcessor(serviceTime, options.service()));
      server = new SelectorsThatKeepTheirConnections(args);
    }
    Thread serving = new Thread(server::serve, "thrift-benchmark-server");
    serving.setDaemon(true);
    serving.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!server.isServing()) {
      if (!serving.isAlive() || System.nanoTime() > deadline) {
        server.stop();
        socket.close();
        if (workers != null) {
          workers.shutdownNow();
        }
        throw new TTransportException("the Thrift benchmark server did not start on " + host + ":" + port);
      }
      Thread.sleep(5);
    }
    return new ThriftBenchmarkServer(socket, boundPort, server, serving, workers);
  }

  /**
   * The selector server's threads: {@value #SELECTOR_THREADS} selector threads, and an accept thread
   * that hands each accepted connection to one of them through a queue of {@link #ACCEPT_BACKLOG}
   * (libthrift's default is 4). A selector thread registers its new connections only between two
   * passes over its ready ones; with 4, the accept thread waited a whole pass per 4 connections, so at
   * thousands of busy users new connections piled up in the kernel's accept queue (2,300 seen) and
   * their first calls timed out unanswered.
   */
  static TThreadedSelectorServer.Args selectorArgs(TNonblockingServerSocket socket) {
    return new TThreadedSelectorServer.Args(socket)
        .selectorThreads(SELECTOR_THREADS)
        .acceptPolicy(TThreadedSelectorServer.Args.AcceptPolicy.FAST_ACCEPT)
        .acceptQueueSizePerThread(ACCEPT_BACKLOG);
  }

  /** Greeter's synchronous processor, registered under {@code service} in a multiplexed one if set. */
  private static TProcessor syncProcessor(Duration serviceTime, String service) {
    TProcessor greeter = new Greeter.Processor<>(new BlockingGreeterService(serviceTime));
    if (service == null) {
      return greeter;
    }
    TMultiplexedProcessor multiplexed = new TMultiplexedProcessor();
    multiplexed.registerProcessor(service, greeter);
    return multiplexed;
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public void close() throws InterruptedException {
    server.stop();
    serving.join(TimeUnit.SECONDS.toMillis(5));
    socket.close();
    if (workers != null) {
      workers.shutdownNow();
    }
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

  /** Greeter.say on a thread of its own (buffered or multiplexed servers): the service time sleeps. */
  static final class BlockingGreeterService implements Greeter.Iface {
    private final Duration serviceTime;

    BlockingGreeterService(Duration serviceTime) {
      this.serviceTime = serviceTime;
    }

    @Override
    public BenchmarkMessage say(BenchmarkMessage request) throws org.apache.thrift.TException {
      if (!serviceTime.isZero()) {
        try {
          Thread.sleep(serviceTime.toMillis(), serviceTime.toNanosPart() % 1_000_000);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new org.apache.thrift.TException("interrupted during the service time", e);
        }
      }
      return ThriftBenchmarkMessages.reply(request);
    }
  }

  /** --transport, --protocol and --service, then the options every benchmark server takes. */
  public static void main(String[] args) throws Exception {
    List<String> common = new ArrayList<>();
    String transport = "framed";
    String protocol = "binary";
    String service = null;
    Options wire = null;
    try {
      for (int i = 0; i < args.length; i++) {
        switch (args[i]) {
          case "--transport", "--protocol", "--service" -> {
            if (i + 1 >= args.length) {
              throw new IllegalArgumentException(args[i] + ": expected a value after it");
            }
            String value = args[++i];
            switch (args[i - 1]) {
              case "--transport" -> transport = value;
              case "--protocol" -> protocol = value;
              default -> service = value;
            }
          }
          default -> common.add(args[i]);
        }
      }
      wire =
          new Options(
              ThriftTransport.parse(transport, "--transport"), ThriftEncoding.parse(protocol, "--protocol"), service);
    } catch (IllegalArgumentException e) {
      System.err.println("Invalid option " + e.getMessage());
      System.exit(2);
    }
    ServerArgs options = ServerArgs.parseOrExit(common.toArray(String[]::new), DEFAULT_PORT);
    ThriftBenchmarkServer server = start(options.host(), options.port(), options.serviceTime(), wire);
    BenchmarkServer.serveUntilStopped(
        server,
        "Thrift benchmark server (" + wire + ") listening on "
            + options.host()
            + ":"
            + server.port()
            + " (service time "
            + Durations.format(options.serviceTime())
            + ")");
  }
}
