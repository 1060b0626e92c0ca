package protocols.rpcx.client;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.DecoderException;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import protocols.core.NettyConnection;
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
public final class RpcxConnection extends NettyConnection<Long, RpcxMessage, RpcxException> {

  private final RpcxClientSettings settings;
  private final AtomicLong nextSeq = new AtomicLong();
  private volatile ScheduledFuture<?> heartbeats;

  private RpcxConnection(
      RpcxClientSettings settings, EventLoopGroup loops, ChannelFactory<? extends Channel> sockets, boolean shared) {
    super(settings.target());
    this.settings = settings;
    connect(
        settings.target(),
        settings.connectTimeout(),
        loops,
        sockets,
        shared,
        pipeline ->
            pipeline
                .addLast("decoder", new RpcxDecoder(settings.maxFrameLength()))
                .addLast("encoder", RpcxEncoder.INSTANCE));
  }

  /** Starts connecting to the settings' target and returns at once. */
  public static RpcxConnection open(RpcxClientSettings settings) {
    return new RpcxConnection(settings, RpcxEventLoops.GROUP, NioSocketChannel::new, true);
  }

  /**
   * Starts connecting on the caller's event loop(s): calls made from that loop are written and
   * answered on it, without a thread hop. {@code shared}: many callers' calls go on it (their writes of
   * one loop turn are then flushed together).
   */
  public static RpcxConnection open(
      RpcxClientSettings settings, EventLoopGroup loops, ChannelFactory<? extends Channel> sockets, boolean shared) {
    return new RpcxConnection(settings, loops, sockets, shared);
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
    return send(
        message.seq(),
        message,
        message.isOneway(),
        timeout,
        () -> new RpcxException(RpcxException.TIMEOUT, "no reply from " + address + " within " + timeout.toMillis() + " ms"));
  }

  @Override
  protected void connectedTo(Channel channel) {
    if (!settings.heartbeatInterval().isZero()) {
      startHeartbeats(channel);
    }
  }

  @Override
  protected void received(RpcxMessage message) {
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
  protected RpcxException connectFailure(Throwable cause) {
    String why =
        cause instanceof ConnectException
            ? "refused"
            : cause == null ? "failed" : "failed: " + cause.getMessage();
    return new RpcxException(RpcxException.CONNECTION, "connection to " + address + " " + why, cause);
  }

  @Override
  protected RpcxException brokenBeforeSent(Throwable cause) {
    return new RpcxException(
        RpcxException.CONNECTION,
        cause instanceof java.nio.channels.ClosedChannelException || cause == null || cause.getMessage() == null
            ? "connection to " + address + " closed before the request was sent"
            : "sending to " + address + " failed: " + cause.getMessage(),
        cause);
  }

  @Override
  protected RpcxException brokenBy(Throwable cause) {
    Throwable frame =
        cause instanceof RpcxFrameException || !(cause instanceof DecoderException) || cause.getCause() == null
            ? cause
            : cause.getCause();
    return frame instanceof RpcxFrameException
        ? new RpcxException(
            RpcxException.PROTOCOL_ERROR,
            "connection to " + address + " closed: malformed frame from the server: " + frame.getMessage(),
            frame)
        : new RpcxException(RpcxException.CONNECTION, "connection to " + address + " closed: " + cause.getMessage(), cause);
  }

  @Override
  protected RpcxException closedByServer() {
    return new RpcxException(RpcxException.CONNECTION, "connection to " + address + " closed by the server");
  }

  @Override
  protected RpcxException closedByClient() {
    return new RpcxException(RpcxException.CONNECTION, "connection to " + address + " closed by the client");
  }

  @Override
  protected void onClosed() {
    ScheduledFuture<?> beats = heartbeats;
    if (beats != null) {
      beats.cancel(false);
    }
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
                                closeBecause(
                                    channel,
                                    new RpcxException(
                                        RpcxException.CONNECTION,
                                        "connection to "
                                            + address
                                            + " closed: heartbeat failed ("
                                            + protocols.core.FailureDescriber.unwrap(error).getMessage()
                                            + ")"));
                              }
                            }),
                interval,
                interval,
                TimeUnit.NANOSECONDS);
  }

  @Override
  protected String describe() {
    return "rpcx connection to " + address;
  }
}
