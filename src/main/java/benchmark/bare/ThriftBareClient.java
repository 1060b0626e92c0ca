package benchmark.bare;

import benchmark.thrift.ThriftBenchmarkMessages;
import benchmark.thrift.gen.BenchmarkMessage;
import benchmark.thrift.gen.Greeter;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.async.AsyncMethodCallback;
import org.apache.thrift.async.TAsyncClientManager;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.transport.TNonblockingSocket;
import org.apache.thrift.transport.TTransportException;
import protocols.core.HostAndPort;
import protocols.thrift.ThriftProtocolBuilder;

/**
 * libthrift's generated {@code Greeter.AsyncClient}, binary protocol, framed, on connections driven by
 * two shared selector threads, as the thrift protocol's defaults are. A Thrift async client carries one
 * call at a time: with N connections, a call waits, first come first served, for a free one (as in the
 * protocol's pool); with one connection per chain it never waits.
 */
final class ThriftBareClient implements BareClient {

  private static final long TIMEOUT_MILLIS = ThriftProtocolBuilder.DEFAULT_TIMEOUT.toMillis();

  private static final BenchmarkMessage REQUEST = ThriftBenchmarkMessages.request();

  /** The selector threads ({@link TAsyncClientManager}s) that every connection of every client shares. */
  static final class Selectors implements BareClients {
    private static final int THREADS = 2; // the seed's and the former thrift protocol's default

    private final HostAndPort target;
    private final TAsyncClientManager[] managers = new TAsyncClientManager[THREADS];
    private final AtomicInteger next = new AtomicInteger();

    Selectors(HostAndPort target) throws IOException {
      this.target = target;
      for (int i = 0; i < THREADS; i++) {
        managers[i] = new TAsyncClientManager();
      }
    }

    @Override
    public BareClient open(int connections, boolean oneChainEach) throws IOException {
      return new ThriftBareClient(this, connections);
    }

    private TAsyncClientManager nextManager() {
      return managers[Math.floorMod(next.getAndIncrement(), managers.length)];
    }

    @Override
    public void close() {
      for (TAsyncClientManager manager : managers) {
        manager.stop();
      }
    }
  }

  private final Selectors selectors;
  private final ArrayDeque<Connection> all = new ArrayDeque<>();
  // guarded by this
  private final ArrayDeque<Connection> idle = new ArrayDeque<>();
  private final ArrayDeque<CompletableFuture<Boolean>> waiting = new ArrayDeque<>();

  private ThriftBareClient(Selectors selectors, int connections) throws IOException {
    this.selectors = selectors;
    try {
      for (int i = 0; i < connections; i++) {
        Connection connection = new Connection();
        all.add(connection);
        idle.add(connection);
      }
    } catch (IOException e) {
      close();
      throw e;
    }
  }

  @Override
  public CompletableFuture<Boolean> say() {
    CompletableFuture<Boolean> reply = new CompletableFuture<>();
    Connection free;
    synchronized (this) {
      free = idle.poll();
      if (free == null) {
        waiting.add(reply);
        return reply;
      }
    }
    send(free, reply);
    return reply;
  }

  private void send(Connection connection, CompletableFuture<Boolean> reply) {
    try {
      connection.client().say(REQUEST, new AsyncMethodCallback<>() {
        @Override
        public void onComplete(BenchmarkMessage response) {
          release(connection); // first: the reply's chain sends its next call at once
          reply.complete(ThriftBenchmarkMessages.isOk(response));
        }

        @Override
        public void onError(Exception e) {
          release(connection);
          reply.completeExceptionally(e);
        }
      });
    } catch (Exception e) {
      release(connection);
      reply.completeExceptionally(e);
    }
  }

  /** A finished call's connection goes to the first waiting call, or back to the idle ones. */
  private void release(Connection connection) {
    CompletableFuture<Boolean> next;
    synchronized (this) {
      next = waiting.poll();
      if (next == null) {
        idle.add(connection);
        return;
      }
    }
    send(connection, next);
  }

  @Override
  public void close() {
    all.forEach(Connection::close);
  }

  /** One socket on one selector thread; after an error (the async client then closes it) a new one. */
  private final class Connection {
    private Greeter.AsyncClient client;
    private TNonblockingSocket socket;

    Connection() throws IOException {
      connect();
    }

    /** Only the call that holds the connection calls this. */
    Greeter.AsyncClient client() throws IOException {
      if (client.hasError()) {
        socket.close();
        connect();
      }
      return client;
    }

    private void connect() throws IOException {
      HostAndPort target = selectors.target;
      SocketChannel channel = SocketChannel.open(new InetSocketAddress(target.host(), target.port()));
      try {
        socket = new TNonblockingSocket(channel);
      } catch (IOException | TTransportException e) {
        channel.close();
        throw new IOException("cannot set up the connection to " + target + ": " + e, e);
      }
      client = new Greeter.AsyncClient(new TBinaryProtocol.Factory(), selectors.nextManager(), socket);
      client.setTimeout(TIMEOUT_MILLIS);
    }

    void close() {
      if (socket != null) {
        socket.close();
      }
    }
  }
}
