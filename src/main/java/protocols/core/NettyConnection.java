package protocols.core;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.flush.FlushConsolidationHandler;
import io.netty.util.ReferenceCountUtil;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * One TCP connection on a Netty event loop (Gatling's, through {@link ClientIo}) carrying many calls
 * at once, each matched to its reply by an id ({@link PendingCalls}): the life cycle the frameworks
 * share. A framework adds its codec, its exception type {@code F} and its messages.
 *
 * <p>Nothing blocks: the connection starts connecting when built; calls made meanwhile are written
 * once connected. Every call ends: with its reply, its timeout, or the loss of the connection, which
 * fails every pending call with the first known reason. A closed connection stays closed: {@link
 * #isUsable()} turns false and the owner opens a new one.
 *
 * <p>Subclasses call {@link #connect} last in their constructor: the callbacks below may run from it,
 * and they need the subclass's fields.
 *
 * @param <K> the id a reply carries
 * @param <R> a reply as the codec decodes it
 * @param <F> the framework's failure (status and message for the report)
 */
public abstract class NettyConnection<K, R, F extends RuntimeException> implements PooledClient {

  protected final String address;
  protected final PendingCalls<K, R> pending = new PendingCalls<>();
  /** Why the channel is being closed, when this side knows: the first reason wins. */
  private final AtomicReference<F> failure = new AtomicReference<>();
  private volatile F closedBecause;
  private volatile boolean anyReply;
  private volatile boolean anyCallSent;
  private ChannelFuture connected; // set once by connect(), before the connection is handed out

  protected NettyConnection(HostAndPort target) {
    this.address = target.toString();
  }

  /**
   * Starts connecting and returns at once. {@code codec} adds the framework's handlers; the base adds
   * the last one, which hands each decoded reply to {@link #received}. {@code shared}: many callers send
   * on this connection, so their calls of one event-loop turn are written to the socket together, at the
   * end of the read or of the turn (a system call for them all instead of one each: rpcx at 1000 users on
   * 4 connections, 1.0–1.2 instead of 2.1–2.2 µs of system time per call); a connection of one caller at
   * a time writes each call at once (deferring it would only add a task per call).
   */
  protected final void connect(
      HostAndPort target,
      Duration connectTimeout,
      EventLoopGroup loops,
      ChannelFactory<? extends Channel> sockets,
      boolean shared,
      Consumer<ChannelPipeline> codec) {
    connected =
        new Bootstrap()
            .group(loops)
            .channelFactory(sockets)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, connectTimeout.toMillis()))
            .handler(
                new ChannelInitializer<>() {
                  @Override
                  protected void initChannel(Channel channel) {
                    if (shared) {
                      channel.pipeline().addLast("flushes", new FlushConsolidationHandler(256, true));
                    }
                    codec.accept(channel.pipeline());
                    channel.pipeline().addLast("replies", new Replies());
                  }
                })
            .connect(target.host(), target.port());
    connected.addListener(
        (ChannelFuture f) -> {
          if (!f.isSuccess()) {
            closed(connectFailure(f.cause()));
          } else {
            connectedTo(f.channel());
          }
        });
  }

  /** A reply from the server, on the connection's event loop. */
  protected abstract void received(R reply);

  /** Connecting failed ({@code cause} null: cancelled). */
  protected abstract F connectFailure(Throwable cause);

  /** A write failed and nothing is known about why the channel went. */
  protected abstract F brokenBeforeSent(Throwable cause);

  /** What an exception in the pipeline (a malformed frame, a reset) means for the calls on it. */
  protected abstract F brokenBy(Throwable cause);

  /** The server closed the connection. */
  protected abstract F closedByServer();

  /** {@link #close()} was called. */
  protected abstract F closedByClient();

  /** Connected: a framework that heartbeats starts here. */
  protected void connectedTo(Channel channel) {}

  /** Closed for good: runs before the pending calls fail (and may run more than once). */
  protected void onClosed() {}

  /** False once the connection failed or closed: then it only fails calls. */
  public final boolean isUsable() {
    // a failed connect is done before its listeners (which set closedBecause) have run
    return closedBecause == null && !(connected.isDone() && !connected.isSuccess());
  }

  /** Calls waiting for their reply on this connection. */
  public final int pendingCalls() {
    return pending.size();
  }

  public final String address() {
    return address;
  }

  /** Whether any reply came on this connection. */
  public final boolean answered() {
    return anyReply;
  }

  /**
   * Why the connection is gone without any reply having come on it (it failed to connect, or the
   * server closed it first), or null: what counts against a {@link ReconnectBackoff}.
   */
  public final F failedBeforeAnswering() {
    if (anyReply) {
      return null;
    }
    F why = closedBecause;
    if (why == null && connected.isDone() && !connected.isSuccess()) {
      why = connectFailure(connected.cause());
    }
    return why;
  }

  /** Whether any call was written on this connection. */
  protected final boolean anyCallSent() {
    return anyCallSent;
  }

  /** Why the connection is closed, or null while it is open. */
  protected final F closedBecause() {
    return closedBecause;
  }

  /**
   * Sends {@code message} (what the pipeline's encoder takes; released here if never written) and
   * completes with the reply carrying {@code id}, or with null for a one-way message once written.
   */
  protected final CompletableFuture<R> send(
      K id, Object message, boolean oneway, Duration timeout, Supplier<? extends F> onTimeout) {
    F closed = closedBecause;
    if (closed != null) {
      ReferenceCountUtil.release(message);
      return CompletableFuture.failedFuture(closed);
    }
    CompletableFuture<R> call;
    if (oneway) {
      call = new CompletableFuture<>();
    } else {
      call = pending.register(id, timeout, onTimeout);
      if (closedBecause != null) { // closed between the first check and the registration
        ReferenceCountUtil.release(message);
        pending.fail(id, closedBecause);
        return call;
      }
    }
    Consumer<F> fail = reason -> {
      if (oneway) {
        call.completeExceptionally(reason);
      } else {
        pending.fail(id, reason);
      }
    };
    whenConnected(
        channel -> {
          anyCallSent = true;
          channel
              .writeAndFlush(message)
              .addListener(
                  f -> {
                    if (!f.isSuccess()) {
                      fail.accept(writeFailure(f.cause()));
                    } else if (oneway) {
                      call.complete(null);
                    }
                  });
        },
        reason -> {
          ReferenceCountUtil.release(message);
          fail.accept(reason);
        });
    return call;
  }

  /** Runs {@code write} once connected, or {@code fail} with why the connection is gone. */
  protected final void whenConnected(Consumer<Channel> write, Consumer<F> fail) {
    if (connected.isDone()) {
      if (connected.isSuccess()) {
        write.accept(connected.channel());
      } else {
        closed(connectFailure(connected.cause())); // idempotent: the first reason stays
        fail.accept(closedBecause);
      }
      return;
    }
    connected.addListener(
        (ChannelFuture f) -> {
          if (f.isSuccess()) {
            write.accept(f.channel());
          } else {
            fail.accept(closedBecauseOr(connectFailure(f.cause())));
          }
        });
  }

  /** Closes {@code channel} for {@code why}, unless a reason is already known. */
  protected final void closeBecause(Channel channel, F why) {
    failure.compareAndSet(null, why);
    channel.close();
  }

  private F closedBecauseOr(F fallback) {
    F closed = closedBecause;
    return closed != null ? closed : fallback;
  }

  private F writeFailure(Throwable cause) {
    F known = closedBecauseOr(failure.get());
    return known != null ? known : brokenBeforeSent(cause);
  }

  private void closed(F reason) {
    synchronized (this) {
      if (closedBecause == null) {
        closedBecause = reason;
      }
    }
    onClosed();
    pending.failAll(closedBecause);
  }

  /** Closes the connection; pending calls fail. */
  @Override
  public final void close() {
    failure.compareAndSet(null, closedByClient());
    closed(failure.get());
    connected.addListener(
        (ChannelFuture f) -> {
          if (f.isSuccess()) {
            f.channel().close();
          }
        });
    if (!connected.isDone()) {
      connected.cancel(false);
    }
  }

  /** "thrift connection to host:port, framed binary": what {@link #toString()} starts with. */
  protected abstract String describe();

  @Override
  public final String toString() {
    return describe()
        + (isUsable() ? "" : " (closed: " + closedBecauseOr(connectFailure(connected.cause())).getMessage() + ")");
  }

  private final class Replies extends ChannelInboundHandlerAdapter {

    @Override
    @SuppressWarnings("unchecked")
    public void channelRead(ChannelHandlerContext ctx, Object message) {
      try {
        anyReply = true;
        received((R) message);
      } finally {
        ReferenceCountUtil.release(message);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      closeBecause(ctx.channel(), brokenBy(cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      F why = failure.get();
      closed(why != null ? why : closedByServer());
    }
  }
}
