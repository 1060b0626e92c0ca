package protocols.thrift.client;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFactory;
import io.netty.channel.ConnectTimeoutException;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.DecoderException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessageType;
import protocols.core.NettyConnection;
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
public final class ThriftConnection extends NettyConnection<Integer, ThriftReply, ThriftCallException> {

  private final ThriftClientSettings settings;
  private final ThriftMessageEncoder encoder;
  private final AtomicInteger nextSeqid = new AtomicInteger();

  private ThriftConnection(
      ThriftClientSettings settings, EventLoopGroup loops, ChannelFactory<? extends Channel> sockets, boolean shared) {
    super(settings.target());
    this.settings = settings;
    this.encoder = new ThriftMessageEncoder(settings.transport(), settings.encoding(), settings.service());
    connect(
        settings.target(),
        settings.connectTimeout(),
        loops,
        sockets,
        shared,
        pipeline ->
            pipeline.addLast(
                "decoder",
                new ThriftMessageDecoder(settings.transport(), settings.encoding(), settings.maxMessageLength())));
  }

  /**
   * Starts connecting on {@code loops} (a Gatling event loop) and returns at once. {@code shared}: many
   * callers' calls go on it, pipelined (their writes of one loop turn are then flushed together).
   */
  public static ThriftConnection open(
      ThriftClientSettings settings, EventLoopGroup loops, ChannelFactory<? extends Channel> sockets, boolean shared) {
    return new ThriftConnection(settings, loops, sockets, shared);
  }

  /**
   * Encodes the message {@code writer} writes (on the calling thread), sends it and completes with the
   * reply, or with null for a {@code oneway} message once it is written. Fails with a {@link
   * ThriftCallException}.
   */
  public CompletableFuture<ThriftReply> call(ThriftMessageEncoder.MessageWriter writer, Duration timeout) {
    ThriftCallException closed = closedBecause();
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
    return send(
        seqid,
        encoded.bytes(),
        encoded.message().type == TMessageType.ONEWAY,
        timeout,
        () ->
            new ThriftCallException(
                ThriftCallException.TIMEOUT,
                "no response from " + address + " within the timeout of " + timeout.toMillis() + " ms" + neverAnswered(),
                null));
  }

  @Override
  protected void received(ThriftReply reply) {
    pending.complete(reply.header().seqid, reply); // false: its call timed out or was cancelled
  }

  @Override
  protected ThriftCallException connectFailure(Throwable cause) {
    String why =
        cause instanceof ConnectTimeoutException
            ? " within the connect timeout of " + settings.connectTimeout().toMillis() + " ms"
            : cause instanceof ConnectException && cause.getMessage() != null
                // epoll's "finishConnect(..) failed with error(-111): Connection refused: /host:port"
                ? cause.getMessage().contains("Connection refused") ? ": Connection refused" : ": " + cause.getMessage()
                : cause == null ? ": cancelled" : ": " + cause;
    return new ThriftCallException(ThriftCallException.CONNECT_FAILED, "cannot connect to " + address + why, cause);
  }

  @Override
  protected ThriftCallException brokenBeforeSent(Throwable cause) {
    return new ThriftCallException(
        ThriftCallException.CONNECTION_LOST,
        "the connection to " + address + " broke before the call was sent"
            + (cause == null || cause.getMessage() == null ? "" : ": " + cause.getMessage()),
        cause);
  }

  @Override
  protected ThriftCallException brokenBy(Throwable cause) {
    Throwable wire = cause instanceof DecoderException && cause.getCause() instanceof ThriftWireException w ? w : cause;
    return wire instanceof ThriftWireException w
        ? new ThriftCallException(
            w.status(), (w.mismatch() ? "" : "malformed reply from " + address + ": ") + w.getMessage(), w)
        : lost(cause.getMessage(), cause);
  }

  @Override
  protected ThriftCallException closedByServer() {
    return lost("closed by the server", null);
  }

  @Override
  protected ThriftCallException closedByClient() {
    return new ThriftCallException(
        ThriftCallException.CLOSED, "the connection to " + address + " was closed by the client (the simulation is over)", null);
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
    return answered() || !anyCallSent()
        ? ""
        : " (the server never answered on this connection: if every call ends so, the server may not speak "
            + settings.wire()
            + "; the protocol's transport, binary/compact and multiplexed service name must match the server's)";
  }

  @Override
  protected String describe() {
    return "thrift connection to " + address + ", " + settings.wire();
  }
}
