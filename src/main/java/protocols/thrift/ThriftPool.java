package protocols.thrift;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import org.apache.thrift.async.AsyncMethodCallback;
import org.apache.thrift.async.TAsyncClient;
import org.apache.thrift.async.TAsyncClientManager;
import org.apache.thrift.transport.TNonblockingSocket;
import org.apache.thrift.transport.TTransportException;

/**
 * Up to {@code size} connections to one Thrift server, each running one call at a time (a Thrift
 * async client cannot do more), and the calls waiting for one.
 *
 * <p>A call takes an idle connection, or opens a new one while the pool is below its size, or else
 * waits, first come first served, for the next connection a finished call releases. Waiting blocks no
 * thread: the waiting call is a queued object. The call's timeout runs from the moment the virtual user
 * sent it, so it covers the wait, the connection set-up and the call itself; a call still waiting when
 * it expires fails as {@link ThriftCallException#POOL_EXHAUSTED} without being sent. A connection that
 * failed in any way (the async client closes it on every error, even a declared exception) is dropped
 * and a new one is opened on demand: the pool recovers by itself.
 */
final class ThriftPool {

  /** A connection idle for longer than this is checked for a close by the server before it is used. */
  private static final long STALE_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

  private static final HashedWheelTimer WAIT_TIMER =
      new HashedWheelTimer(
          runnable -> {
            Thread thread = new Thread(runnable, "thrift-pool-wait");
            thread.setDaemon(true);
            return thread;
          },
          5,
          TimeUnit.MILLISECONDS);

  private final ThriftProtocol protocol;
  private final ThriftRuntime runtime;
  private final int size;

  // guarded by this
  private final ArrayDeque<Connection> idle = new ArrayDeque<>();
  private final LinkedHashSet<Waiter<?>> waiting = new LinkedHashSet<>();
  private final java.util.Set<Connection> all = new java.util.HashSet<>();
  private int connecting;
  private boolean closed;

  ThriftPool(ThriftProtocol protocol, ThriftRuntime runtime, int size) {
    this.protocol = protocol;
    this.runtime = runtime;
    this.size = size;
  }

  /** Sends one call on a free connection, now or when one is free; never blocks. */
  <S extends TAsyncClient, Req, Res> CompletableFuture<Res> call(
      ThriftService<S> service, ThriftMethod<S, Req, Res> method, Req request, Duration timeout) {
    Waiter<Res> waiter =
        new Waiter<>(
            System.nanoTime() + timeout.toNanos(),
            timeout,
            (connection, timeoutMillis, callback) -> {
              S client =
                  service.create(protocol.encoding.factory(), connection.manager, connection.socket);
              client.setTimeout(timeoutMillis);
              method.call(client, request, callback);
            });
    Connection connection;
    boolean connect = false;
    synchronized (this) {
      if (closed) {
        return CompletableFuture.failedFuture(
            new ThriftCallException(
                ThriftCallException.CLOSED, "the simulation is over: its Thrift connections are closed", null));
      }
      connection = takeIdle();
      if (connection == null) {
        waiting.add(waiter);
        if (all.size() + connecting < size) {
          connecting++;
          connect = true;
        }
      }
    }
    if (connection != null) {
      start(connection, waiter);
      return waiter.future;
    }
    if (connect) {
      openConnection(waiter);
    }
    waiter.timer =
        WAIT_TIMER.newTimeout(t -> expire(waiter), timeout.toNanos(), TimeUnit.NANOSECONDS);
    if (waiter.future.isDone()) {
      waiter.timer.cancel();
    }
    return waiter.future;
  }

  /** An idle connection that still looks alive, or null; the dead ones are dropped. */
  private Connection takeIdle() {
    Connection connection;
    while ((connection = idle.pollFirst()) != null) {
      if (connection.looksAlive()) {
        return connection;
      }
      all.remove(connection);
      connection.close();
    }
    return null;
  }

  private void openConnection(Waiter<?> requester) {
    runtime.connector.connect(
        protocol.target,
        protocol.connectTimeout,
        new ThriftConnector.Done() {
          @Override
          public void connected(SocketChannel channel) {
            Connection connection;
            try {
              connection = new Connection(new TNonblockingSocket(channel), runtime.nextManager());
            } catch (IOException | TTransportException | RuntimeException e) {
              try {
                channel.close();
              } catch (IOException ignored) {
                // nothing left to do with it
              }
              failed(e);
              return;
            }
            synchronized (ThriftPool.this) {
              connecting--;
              if (!closed) {
                all.add(connection);
              }
            }
            release(connection);
          }

          @Override
          public void failed(Exception reason) {
            synchronized (ThriftPool.this) {
              connecting--;
            }
            connectFailed(requester, reason);
          }
        });
  }

  /** The call that asked for the connection fails, if it still waits; the next waiter gets its turn. */
  private void connectFailed(Waiter<?> requester, Exception e) {
    boolean mine;
    synchronized (this) {
      mine = waiting.remove(requester);
    }
    if (mine) {
      requester.fail(connectFailure(e));
    }
    connectForNextWaiter();
  }

  private ThriftCallException connectFailure(Exception e) {
    String target = protocol.target.toString();
    if (e instanceof SocketTimeoutException) {
      return new ThriftCallException(
          ThriftCallException.CONNECT_FAILED,
          "cannot connect to " + target + " within the connect timeout of " + protocol.connectTimeout.toMillis() + " ms",
          e);
    }
    String reason = e instanceof ConnectException && e.getMessage() != null ? e.getMessage() : e.toString();
    return new ThriftCallException(
        ThriftCallException.CONNECT_FAILED, "cannot connect to " + target + ": " + reason, e);
  }

  /** Opens a connection for the first waiting call when the pool has room (after a loss). */
  private void connectForNextWaiter() {
    Waiter<?> next = null;
    synchronized (this) {
      if (!closed && !waiting.isEmpty() && all.size() + connecting < size) {
        next = waiting.iterator().next();
        connecting++;
      }
    }
    if (next != null) {
      openConnection(next);
    }
  }

  /** A free connection goes to the first waiting call, or back to the idle ones. */
  private void release(Connection connection) {
    while (true) {
      Waiter<?> next;
      synchronized (this) {
        if (closed || !all.contains(connection)) {
          connection.close();
          return;
        }
        next = pollWaiter();
        if (next == null) {
          connection.idleSince = System.nanoTime();
          idle.addFirst(connection); // most recently used first: the others may be closed as stale
          return;
        }
      }
      if (next.remainingNanos() > 0) {
        start(connection, next);
        return;
      }
      next.fail(exhausted(next));
    }
  }

  private Waiter<?> pollWaiter() {
    Iterator<Waiter<?>> it = waiting.iterator();
    if (!it.hasNext()) {
      return null;
    }
    Waiter<?> next = it.next();
    it.remove();
    return next;
  }

  /** A connection failed: drop it, and open another if calls are waiting. */
  private void discard(Connection connection) {
    connection.close();
    synchronized (this) {
      all.remove(connection);
    }
    connectForNextWaiter();
  }

  private void expire(Waiter<?> waiter) {
    boolean removed;
    synchronized (this) {
      removed = waiting.remove(waiter);
    }
    if (removed) {
      waiter.fail(exhausted(waiter));
    }
  }

  private ThriftCallException exhausted(Waiter<?> waiter) {
    int open, pending, busy;
    synchronized (this) {
      open = all.size();
      pending = connecting;
      busy = open - idle.size();
    }
    return new ThriftCallException(
        ThriftCallException.POOL_EXHAUSTED,
        "no free connection to "
            + protocol.target
            + " within the timeout of "
            + waiter.timeout.toMillis()
            + " ms: "
            + busy
            + " of "
            + size
            + " connection(s) busy"
            + (pending > 0 ? ", " + pending + " connecting" : "")
            + "; the call was not sent",
        null);
  }

  private <Res> void start(Connection connection, Waiter<Res> waiter) {
    if (waiter.timer != null) {
      waiter.timer.cancel();
    }
    long remainingMillis = Math.max(1, TimeUnit.NANOSECONDS.toMillis(waiter.remainingNanos()));
    AsyncMethodCallback<Res> callback =
        new AsyncMethodCallback<>() {
          private final AtomicBoolean done = new AtomicBoolean();

          @Override
          public void onComplete(Res response) {
            // Thrift calls onError if this throws: it must not
            if (done.compareAndSet(false, true)) {
              try {
                release(connection);
              } finally {
                waiter.future.complete(response);
              }
            }
          }

          @Override
          public void onError(Exception e) {
            if (done.compareAndSet(false, true)) {
              try {
                discard(connection); // the async client has closed it already, whatever the error
              } finally {
                waiter.fail(callFailure(e, waiter));
              }
            }
          }
        };
    try {
      waiter.starter.start(connection, remainingMillis, callback);
    } catch (Exception | LinkageError e) {
      callback.onError(e instanceof Exception ex ? ex : new TException(e));
    }
  }

  private ThriftCallException callFailure(Exception e, Waiter<?> waiter) {
    String target = protocol.target.toString();
    if (e instanceof java.util.concurrent.TimeoutException) {
      return new ThriftCallException(
          ThriftCallException.TIMEOUT,
          "no response from " + target + " within the timeout of " + waiter.timeout.toMillis() + " ms",
          e);
    }
    if (e instanceof TApplicationException app) {
      return new ThriftCallException(
          ThriftCallException.APPLICATION_EXCEPTION,
          "TApplicationException " + applicationType(app.getType()) + ": " + app.getMessage(),
          e);
    }
    if (e instanceof TException && e instanceof TBase<?, ?>) {
      // an exception the IDL declares: its generated toString shows its fields
      return new ThriftCallException(e.getClass().getSimpleName(), "declared exception " + e, e);
    }
    if (e instanceof TTransportException || e instanceof IOException) {
      return new ThriftCallException(
          ThriftCallException.CONNECTION_LOST,
          "the connection to " + target + " broke during the call: " + describe(e),
          e);
    }
    return new ThriftCallException(ThriftCallException.CLIENT_ERROR, describe(e), e);
  }

  private static String describe(Throwable e) {
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage() + " (" + e.getClass().getSimpleName() + ")";
  }

  private static String applicationType(int type) {
    return switch (type) {
      case TApplicationException.UNKNOWN_METHOD -> "UNKNOWN_METHOD";
      case TApplicationException.INVALID_MESSAGE_TYPE -> "INVALID_MESSAGE_TYPE";
      case TApplicationException.WRONG_METHOD_NAME -> "WRONG_METHOD_NAME";
      case TApplicationException.BAD_SEQUENCE_ID -> "BAD_SEQUENCE_ID";
      case TApplicationException.MISSING_RESULT -> "MISSING_RESULT";
      case TApplicationException.INTERNAL_ERROR -> "INTERNAL_ERROR";
      case TApplicationException.PROTOCOL_ERROR -> "PROTOCOL_ERROR";
      case TApplicationException.INVALID_TRANSFORM -> "INVALID_TRANSFORM";
      case TApplicationException.INVALID_PROTOCOL -> "INVALID_PROTOCOL";
      case TApplicationException.UNSUPPORTED_CLIENT_TYPE -> "UNSUPPORTED_CLIENT_TYPE";
      default -> "UNKNOWN";
    };
  }

  /** Closes every connection; calls still on them fail, calls still waiting fail as CLOSED. */
  void close() {
    List<Connection> connections;
    List<Waiter<?>> waiters;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      connections = new ArrayList<>(all);
      all.clear();
      idle.clear();
      waiters = new ArrayList<>(waiting);
      waiting.clear();
    }
    connections.forEach(Connection::close);
    waiters.forEach(
        w -> w.fail(new ThriftCallException(ThriftCallException.CLOSED, "the simulation is over: its Thrift connections are closed", null)));
    protocol.runtime.release(runtime);
  }

  /** For tests and messages: open connections, connections being opened, idle ones, waiting calls. */
  synchronized String state() {
    return all.size() + " open, " + connecting + " connecting, " + idle.size() + " idle, " + waiting.size() + " waiting";
  }

  @FunctionalInterface
  private interface Starter<Res> {
    void start(Connection connection, long timeoutMillis, AsyncMethodCallback<Res> callback)
        throws Exception;
  }

  private static final class Waiter<Res> {
    final long deadlineNanos;
    final Duration timeout;
    final Starter<Res> starter;
    final CompletableFuture<Res> future = new CompletableFuture<>();
    volatile Timeout timer;

    Waiter(long deadlineNanos, Duration timeout, Starter<Res> starter) {
      this.deadlineNanos = deadlineNanos;
      this.timeout = timeout;
      this.starter = starter;
    }

    long remainingNanos() {
      return deadlineNanos - System.nanoTime();
    }

    void fail(ThriftCallException failure) {
      if (timer != null) {
        timer.cancel();
      }
      future.completeExceptionally(failure);
    }
  }

  /** One socket, bound to one selector thread; used by one call at a time. */
  private static final class Connection {
    final TNonblockingSocket socket;
    final TAsyncClientManager manager;
    long idleSince = System.nanoTime();

    Connection(TNonblockingSocket socket, TAsyncClientManager manager) {
      this.socket = socket;
      this.manager = manager;
    }

    /** After a long idle time, a non-blocking read sees whether the server has closed it meanwhile. */
    boolean looksAlive() {
      if (!socket.isOpen()) {
        return false;
      }
      if (System.nanoTime() - idleSince < STALE_CHECK_NANOS) {
        return true;
      }
      try {
        return socket.getSocketChannel().read(ByteBuffer.allocate(1)) == 0;
      } catch (IOException e) {
        return false;
      }
    }

    void close() {
      socket.close();
    }
  }
}
