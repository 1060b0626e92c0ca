package protocols.rpcx.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import protocols.core.PendingCalls;
import protocols.rpcx.codec.CompressType;
import protocols.rpcx.codec.MsgPack;
import protocols.rpcx.codec.RpcxDecoder;
import protocols.rpcx.codec.RpcxEncoder;
import protocols.rpcx.codec.RpcxFrameException;
import protocols.rpcx.codec.RpcxMessage;
import protocols.rpcx.codec.SerializeType;

/**
 * One TCP connection to an rpcx server, carrying many calls at once: each request gets the next
 * sequence number and its reply is matched by it, in whatever order replies come.
 *
 * <p>Nothing blocks: {@link #open} starts connecting and returns; calls made meanwhile are sent once
 * connected. Every call ends: with the reply, an error reply ({@link RpcxException#SERVER_ERROR}), its
 * timeout, or the loss of the connection, which fails every pending call. A malformed frame from the
 * server closes the connection. A closed connection stays closed: {@link #isUsable()} turns false and
 * the owner opens a new one.
 */
public final class RpcxConnection implements AutoCloseable {

  private final RpcxClientSettings settings;
  private final String address;
  private final ChannelFuture connected;
  private final AtomicLong nextSeq = new AtomicLong();
  private final PendingCalls<Long, RpcxMessage> pending = new PendingCalls<>();
  private volatile RpcxException closedBecause;
  /** Why the channel is being closed, when we close it: the first reason wins. */
  private final java.util.concurrent.atomic.AtomicReference<RpcxException> failure =
      new java.util.concurrent.atomic.AtomicReference<>();
  private volatile ScheduledFuture<?> heartbeats;

  private RpcxConnection(
      RpcxClientSettings settings, EventLoopGroup loops, ChannelFactory<? extends Channel> sockets) {
    this.settings = settings;
    this.address = settings.target().toString();
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
                new ChannelInitializer<SocketChannel>() {
                  @Override
                  protected void initChannel(SocketChannel channel) {
                    channel
                        .pipeline()
                        .addLast("decoder", new RpcxDecoder(settings.maxFrameLength()))
                        .addLast("encoder", RpcxEncoder.INSTANCE)
                        .addLast("replies", new Replies());
                  }
                })
            .connect(settings.target().host(), settings.target().port());
    connected.addListener(
        (ChannelFuture f) -> {
          if (!f.isSuccess()) {
            closed(connectFailure(f.cause()));
          } else if (!settings.heartbeatInterval().isZero()) {
            startHeartbeats(f.channel());
          }
        });
  }

  /** Starts connecting to the settings' target and returns at once. */
  public static RpcxConnection open(RpcxClientSettings settings) {
    return new RpcxConnection(settings, RpcxEventLoops.GROUP, NioSocketChannel::new);
  }

  /**
   * Starts connecting on the caller's event loop(s): calls made from that loop are written and
   * answered on it, without a thread hop.
   */
  public static RpcxConnection open(
      RpcxClientSettings settings, EventLoopGroup loops, ChannelFactory<? extends Channel> sockets) {
    return new RpcxConnection(settings, loops, sockets);
  }

  /** False once the connection failed or closed: then it only fails calls. */
  public boolean isUsable() {
    // a failed connect is done before its listeners (which set closedBecause) have run
    return closedBecause == null && !(connected.isDone() && !connected.isSuccess());
  }

  /** Calls now in flight on this connection. */
  public int pendingCalls() {
    return pending.size();
  }

  public String address() {
    return address;
  }

  /**
   * Sends {@code request} (its sequence number is replaced by this connection's next one; its
   * compression chosen by the settings) and completes with the reply. The timeout is also sent to the
   * server as {@value RpcxMessage#SERVER_TIMEOUT_KEY} in milliseconds. A oneway request completes with
   * null once written.
   */
  public CompletableFuture<RpcxMessage> call(RpcxMessage request, Duration timeout) {
    RpcxMessage.Builder message =
        request
            .toBuilder()
            .response(false)
            .seq(nextSeq.getAndIncrement())
            .compressType(
                settings.compression() == CompressType.GZIP
                        && request.payloadLength() > RpcxClientSettings.COMPRESS_THRESHOLD
                    ? CompressType.GZIP
                    : CompressType.NONE);
    if (!request.isHeartbeat()) {
      message.putMetadata(RpcxMessage.SERVER_TIMEOUT_KEY, Long.toString(Math.max(1, timeout.toMillis())));
    }
    return send(message.build(), timeout);
  }

  /**
   * Sends a heartbeat as rpcx does (empty path and method, MsgPack int64 payload) and completes with
   * the round-trip time once the server has echoed it unchanged.
   */
  public CompletableFuture<Duration> heartbeat(Duration timeout) {
    long sent = System.nanoTime();
    byte[] payload = MsgPack.int64(System.currentTimeMillis() * 1_000_000L);
    RpcxMessage beat =
        RpcxMessage.builder()
            .heartbeat(true)
            .serializeType(SerializeType.MSGPACK)
            .seq(nextSeq.getAndIncrement())
            .payload(payload)
            .build();
    return send(beat, timeout)
        .thenApply(
            echo -> {
              if (!echo.isHeartbeat() || !Arrays.equals(payload, echo.payload())) {
                throw new RpcxException(
                    RpcxException.PROTOCOL_ERROR,
                    "the heartbeat reply from " + address + " is not the echo of the heartbeat: " + echo);
              }
              return Duration.ofNanos(System.nanoTime() - sent);
            });
  }

  private CompletableFuture<RpcxMessage> send(RpcxMessage message, Duration timeout) {
    RpcxException closed = closedBecause;
    if (closed != null) {
      return CompletableFuture.failedFuture(closed);
    }
    if (message.isOneway()) {
      CompletableFuture<RpcxMessage> written = new CompletableFuture<>();
      whenConnected(
          channel ->
              channel
                  .writeAndFlush(message)
                  .addListener(f -> {
                    if (f.isSuccess()) {
                      written.complete(null);
                    } else {
                      written.completeExceptionally(writeFailure(f.cause()));
                    }
                  }),
          written::completeExceptionally);
      return written;
    }
    long seq = message.seq();
    CompletableFuture<RpcxMessage> call =
        pending.register(
            seq,
            timeout,
            () -> new RpcxException(RpcxException.TIMEOUT, "no reply from " + address + " within " + timeout.toMillis() + " ms"));
    if (closedBecause != null) { // closed between the first check and the registration
      pending.fail(seq, closedBecause);
      return call;
    }
    whenConnected(
        channel ->
            channel
                .writeAndFlush(message)
                .addListener(f -> {
                  if (!f.isSuccess()) {
                    pending.fail(seq, writeFailure(f.cause()));
                  }
                }),
        reason -> pending.fail(seq, reason));
    return call;
  }

  private void whenConnected(
      java.util.function.Consumer<Channel> write, java.util.function.Consumer<RpcxException> fail) {
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

  private RpcxException closedBecauseOr(RpcxException fallback) {
    RpcxException closed = closedBecause;
    return closed != null ? closed : fallback;
  }

  private RpcxException connectFailure(Throwable cause) {
    String why =
        cause instanceof ConnectException
            ? "refused"
            : cause == null ? "failed" : "failed: " + cause.getMessage();
    return new RpcxException(RpcxException.CONNECTION, "connection to " + address + " " + why, cause);
  }

  private RpcxException writeFailure(Throwable cause) {
    RpcxException closed = closedBecause;
    if (closed != null) {
      return closed;
    }
    RpcxException closing = failure.get();
    if (closing != null) {
      return closing;
    }
    return new RpcxException(
        RpcxException.CONNECTION,
        cause instanceof java.nio.channels.ClosedChannelException || cause == null || cause.getMessage() == null
            ? "connection to " + address + " closed before the request was sent"
            : "sending to " + address + " failed: " + cause.getMessage(),
        cause);
  }

  /** Marks the connection closed and fails every pending call with {@code reason}. */
  private void closed(RpcxException reason) {
    synchronized (this) {
      if (closedBecause == null) {
        closedBecause = reason;
      }
    }
    if (heartbeats != null) {
      heartbeats.cancel(false);
    }
    pending.failAll(closedBecause);
  }

  private void startHeartbeats(Channel channel) {
    long interval = settings.heartbeatInterval().toNanos();
    Duration wait = settings.heartbeatInterval().compareTo(Duration.ofSeconds(1)) < 0
        ? Duration.ofSeconds(1)
        : settings.heartbeatInterval();
    heartbeats =
        channel
            .eventLoop()
            .scheduleAtFixedRate(
                () ->
                    heartbeat(wait)
                        .whenComplete(
                            (rtt, error) -> {
                              if (error != null && isUsable()) {
                                failure.compareAndSet(
                                    null,
                                    new RpcxException(
                                        RpcxException.CONNECTION,
                                        "connection to "
                                            + address
                                            + " closed: heartbeat failed ("
                                            + protocols.core.FailureDescriber.unwrap(error).getMessage()
                                            + ")"));
                                channel.close();
                              }
                            }),
                interval,
                interval,
                TimeUnit.NANOSECONDS);
  }

  /** Closes the connection; pending calls fail. */
  @Override
  public void close() {
    failure.compareAndSet(
        null, new RpcxException(RpcxException.CONNECTION, "connection to " + address + " closed by the client"));
    closed(failure.get());
    connected.addListener((ChannelFuture f) -> {
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
    return "rpcx connection to " + address + (isUsable() ? "" : " (closed: " + closedBecauseOr(connectFailure(connected.cause())).getMessage() + ")");
  }

  private final class Replies extends SimpleChannelInboundHandler<RpcxMessage> {

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, RpcxMessage message) {
      if (!message.isResponse()) {
        return; // a message the server pushes on its own: no call waits for it
      }
      if (message.isError()) {
        String error = message.errorMessage();
        pending.fail(
            message.seq(),
            new RpcxException(
                RpcxException.SERVER_ERROR, error == null ? "the server answered with an error and no message" : error));
      } else {
        pending.complete(message.seq(), message);
      }
      // no call waits for a reply after its call timed out or was cancelled: it is dropped
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (failure.get() == null) {
        Throwable frame =
            cause instanceof RpcxFrameException || !(cause instanceof DecoderException) || cause.getCause() == null
                ? cause
                : cause.getCause();
        failure.compareAndSet(
            null,
            frame instanceof RpcxFrameException
                ? new RpcxException(
                    RpcxException.PROTOCOL_ERROR,
                    "connection to " + address + " closed: malformed frame from the server: " + frame.getMessage(),
                    frame)
                : new RpcxException(
                    RpcxException.CONNECTION,
                    "connection to " + address + " closed: " + cause.getMessage(),
                    cause));
      }
      ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      RpcxException why = failure.get();
      closed(
          why != null
              ? why
              : new RpcxException(
                  RpcxException.CONNECTION, "connection to " + address + " closed by the server"));
    }
  }
}
