package protocols.thrift.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.ConnectTimeoutException;
import io.netty.handler.codec.DecoderException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessageType;
import protocols.core.PendingCalls;
import protocols.thrift.ThriftCallException;
import protocols.thrift.codec.ThriftMessageDecoder;
import protocols.thrift.codec.ThriftMessageEncoder;
import protocols.thrift.codec.ThriftReply;
import protocols.thrift.codec.ThriftWireException;

/**
 * One TCP connection to a Thrift server on a Netty event loop (Gatling's, through {@code ClientIo}).
 * Calls are pipelined: each gets the connection's next sequence id and is written at once, whether
 * others wait for their reply or not; replies are matched by sequence id (a Thrift server answers one
 * connection's calls in order, so a late reply to a call that timed out is recognised and dropped).
 *
 * <p>Nothing blocks: {@link #open} starts connecting and returns; calls made meanwhile are written
 * once connected. Every call ends: with its reply, its timeout, or the loss of the connection, which
 * fails every pending call. Bytes that are no message of the configured transport and protocol close
 * the connection, with a message naming what the server seems to speak. A closed connection stays
 * closed: {@link #isUsable()} turns false and the owner opens a new one.
 */
public final class ThriftConnection implements AutoCloseable {

  private final ThriftClientSettings settings;
  private final String address;
  private final ThriftMessageEncoder encoder;
  private final ChannelFuture connected;
  private final AtomicInteger nextSeqid = new AtomicInteger();
  private final PendingCalls<Integer, ThriftReply> pending = new PendingCalls<>();
  /** Why the channel is being closed, when this side knows: the first reason wins. */
  private final AtomicReference<ThriftCallException> failure = new AtomicReference<>();
  private volatile ThriftCallException closedBecause;
  private volatile boolean anyReply;
  private volatile boolean anyCallSent;

  private ThriftConnection(
      ThriftClientSettings settings, EventLoopGroup loops, ChannelFactory<? extends Channel> sockets) {
    this.settings = settings;
    this.address = settings.target().toString();
    this.encoder = new ThriftMessageEncoder(settings.transport(), settings.encoding(), settings.service());
    this.connected =
        new Bootstrap()
            .group(loops)
            .channelFactory(sockets)
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.SO_KEEPALIVE, true)
            .option(
                ChannelOption.CONNECT_TIMEOUT_MILLIS,
                (int) Math.min(Integer.MAX_VALUE, settings.connectTimeout().toMillis()))
            .handler(
                new ChannelInitializer<>() {
                  @Override
                  protected void initChannel(Channel channel) {
                    channel
                        .pipeline()
                        .addLast(
                            "decoder",
                            new ThriftMessageDecoder(
                                settings.transport(), settings.encoding(), settings.maxMessageLength()))
                        .addLast("replies", new Replies());
                  }
                })
            .connect(settings.target().host(), settings.target().port());
    connected.addListener(
        (ChannelFuture f) -> {
          if (!f.isSuccess()) {
            closed(connectFailure(f.cause()));
          }
        });
  }

  /** Starts connecting on {@code loops} (a Gatling event loop) and returns at once. */
  public static ThriftConnection open(
      ThriftClientSettings settings, EventLoopGroup loops, ChannelFactory<? extends Channel> sockets) {
    return new ThriftConnection(settings, loops, sockets);
  }

  /** False once the connection failed or closed: then it only fails calls. */
  public boolean isUsable() {
    // a failed connect is done before its listeners (which set closedBecause) have run
    return closedBecause == null && !(connected.isDone() && !connected.isSuccess());
  }

  /** Calls waiting for their reply on this connection. */
  public int pendingCalls() {
    return pending.size();
  }

  /**
   * Encodes the message {@code writer} writes (on the calling thread), sends it and completes with the
   * reply, or with null for a {@code oneway} message once it is written. Fails with a {@link
   * ThriftCallException}.
   */
  public CompletableFuture<ThriftReply> call(ThriftMessageEncoder.MessageWriter writer, Duration timeout) {
    ThriftCallException closed = closedBecause;
    if (closed != null) {
      return CompletableFuture.failedFuture(closed);
    }
    int seqid = nextSeqid.getAndIncrement();
    ThriftMessageEncoder.Encoded encoded;
    try {
      encoded = encoder.encode(ByteBufAllocator.DEFAULT, seqid, writer);
    } catch (TException | RuntimeException e) {
      return CompletableFuture.failedFuture(
          new ThriftCallException(
              ThriftCallException.CLIENT_ERROR,
              "cannot encode the call: " + (e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()),
              e));
    }
    boolean oneway = encoded.message().type == TMessageType.ONEWAY;
    CompletableFuture<ThriftReply> call;
    if (oneway) {
      call = new CompletableFuture<>(); // completed once written: no reply comes
    } else {
      call =
          pending.register(
              seqid,
              timeout,
              () ->
                  new ThriftCallException(
                      ThriftCallException.TIMEOUT,
                      "no response from " + address + " within the timeout of " + timeout.toMillis() + " ms" + neverAnswered(),
                      null));
      if (closedBecause != null) { // closed between the first check and the registration
        encoded.bytes().release();
        pending.fail(seqid, closedBecause);
        return call;
      }
    }
    Consumer<ThriftCallException> fail = reason -> {
      if (oneway) {
        call.completeExceptionally(reason);
      } else {
        pending.fail(seqid, reason);
      }
    };
    whenConnected(
        channel -> {
          anyCallSent = true;
          channel
              .writeAndFlush(encoded.bytes())
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
          encoded.bytes().release();
          fail.accept(reason);
        });
    return call;
  }

  private void whenConnected(Consumer<Channel> write, Consumer<ThriftCallException> fail) {
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

  private ThriftCallException closedBecauseOr(ThriftCallException fallback) {
    ThriftCallException closed = closedBecause;
    return closed != null ? closed : fallback;
  }

  private ThriftCallException connectFailure(Throwable cause) {
    String why =
        cause instanceof ConnectTimeoutException
            ? " within the connect timeout of " + settings.connectTimeout().toMillis() + " ms"
            : cause instanceof ConnectException && cause.getMessage() != null
                // epoll's "finishConnect(..) failed with error(-111): Connection refused: /host:port"
                ? cause.getMessage().contains("Connection refused") ? ": Connection refused" : ": " + cause.getMessage()
                : cause == null ? ": cancelled" : ": " + cause;
    return new ThriftCallException(ThriftCallException.CONNECT_FAILED, "cannot connect to " + address + why, cause);
  }

  private ThriftCallException writeFailure(Throwable cause) {
    ThriftCallException known = closedBecauseOr(failure.get());
    if (known != null) {
      return known;
    }
    return new ThriftCallException(
        ThriftCallException.CONNECTION_LOST,
        "the connection to " + address + " broke before the call was sent"
            + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage()),
        cause);
  }

  /**
   * The connection broke: when the server never answered on it, the likeliest cause is that it speaks
   * another transport or protocol (servers drop a connection whose first bytes they cannot parse).
   */
  private ThriftCallException lost(String how, Throwable cause) {
    return new ThriftCallException(
        ThriftCallException.CONNECTION_LOST,
        "the connection to " + address + " broke during the call: " + how + neverAnswered(),
        cause);
  }

  private String neverAnswered() {
    return anyReply || !anyCallSent
        ? ""
        : " (the server never answered on this connection: if every call ends so, the server may not speak "
            + settings.wire()
            + "; the protocol's transport, binary/compact and multiplexed service name must match the server's)";
  }

  private void closed(ThriftCallException reason) {
    synchronized (this) {
      if (closedBecause == null) {
        closedBecause = reason;
      }
    }
    pending.failAll(closedBecause);
  }

  /** Closes the connection; pending calls fail. */
  @Override
  public void close() {
    failure.compareAndSet(
        null,
        new ThriftCallException(
            ThriftCallException.CLOSED, "the connection to " + address + " was closed by the client (the simulation is over)", null));
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

  @Override
  public String toString() {
    return "thrift connection to " + address + ", " + settings.wire() + (isUsable() ? "" : " (closed: " + closedBecauseOr(connectFailure(connected.cause())).getMessage() + ")");
  }

  private final class Replies extends SimpleChannelInboundHandler<ThriftReply> {

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, ThriftReply reply) {
      anyReply = true;
      pending.complete(reply.header().seqid, reply); // false: its call timed out or was cancelled
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      Throwable wire = cause instanceof DecoderException && cause.getCause() instanceof ThriftWireException w ? w : cause;
      failure.compareAndSet(
          null,
          wire instanceof ThriftWireException w
              ? new ThriftCallException(
                  w.status(),
                  (w.mismatch() ? "" : "malformed reply from " + address + ": ") + w.getMessage(),
                  w)
              : lost(cause.getMessage(), cause));
      ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      ThriftCallException why = failure.get();
      closed(why != null ? why : lost("closed by the server", null));
    }
  }
}
