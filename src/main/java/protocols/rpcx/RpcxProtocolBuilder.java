package protocols.rpcx;

import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;
import protocols.core.ReconnectBackoff;
import protocols.rpcx.client.RpcxClientSettings;
import protocols.rpcx.codec.CompressType;
import protocols.rpcx.codec.RpcxDecoder;
import protocols.rpcx.codec.SerializeType;

/**
 * {@code rpcx.target("localhost:8972").sharedConnections(4).timeout(Duration.ofSeconds(5)).gzip()}:
 * where and how a simulation's rpcx calls go. Immutable; every method returns a new builder.
 */
public final class RpcxProtocolBuilder implements ProtocolBuilder {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private final HostAndPort target;
  private final ConnectionModel connections;
  private final Duration timeout;
  private final Duration connectTimeout;
  private final SerializeType serializeType;
  private final CompressType compression;
  private final Duration heartbeat;
  private final int maxFrameLength;
  private final Map<String, String> metadata;
  private final ReconnectBackoff.Settings reconnects;

  RpcxProtocolBuilder() {
    this(
        null,
        ConnectionModel.shared(1),
        DEFAULT_TIMEOUT,
        DEFAULT_CONNECT_TIMEOUT,
        SerializeType.PROTOBUF,
        CompressType.NONE,
        Duration.ZERO,
        RpcxDecoder.DEFAULT_MAX_FRAME_LENGTH,
        Map.of(),
        ReconnectBackoff.DEFAULT);
  }

  private RpcxProtocolBuilder(
      HostAndPort target,
      ConnectionModel connections,
      Duration timeout,
      Duration connectTimeout,
      SerializeType serializeType,
      CompressType compression,
      Duration heartbeat,
      int maxFrameLength,
      Map<String, String> metadata,
      ReconnectBackoff.Settings reconnects) {
    this.target = target;
    this.connections = connections;
    this.timeout = timeout;
    this.connectTimeout = connectTimeout;
    this.serializeType = serializeType;
    this.compression = compression;
    this.heartbeat = heartbeat;
    this.maxFrameLength = maxFrameLength;
    this.metadata = metadata;
    this.reconnects = reconnects;
  }

  /** The server, as {@code host:port}. */
  public RpcxProtocolBuilder target(String hostAndPort) {
    return target(HostAndPort.parse(hostAndPort, "rpcx.target"));
  }

  public RpcxProtocolBuilder target(HostAndPort target) {
    return new RpcxProtocolBuilder(target, connections, timeout, connectTimeout, serializeType, compression, heartbeat, maxFrameLength, metadata, reconnects);
  }

  /** {@code count} connections shared round-robin by all users, each carrying many calls at once. */
  public RpcxProtocolBuilder sharedConnections(int count) {
    return connections(ConnectionModel.shared(count));
  }

  /** One connection per virtual user, opened on its first call and closed when it exits. */
  public RpcxProtocolBuilder connectionPerUser() {
    return connections(ConnectionModel.perUser());
  }

  public RpcxProtocolBuilder connections(ConnectionModel model) {
    if (model == null) {
      throw new IllegalArgumentException("rpcx.connections: expected a ConnectionModel, got null");
    }
    return new RpcxProtocolBuilder(target, model, timeout, connectTimeout, serializeType, compression, heartbeat, maxFrameLength, metadata, reconnects);
  }

  /** The timeout of calls that set none; also sent to the server as {@code __ServerTimeout}. */
  public RpcxProtocolBuilder timeout(Duration timeout) {
    return new RpcxProtocolBuilder(
        target, connections, positive(timeout, "rpcx.timeout"), connectTimeout, serializeType, compression, heartbeat, maxFrameLength, metadata, reconnects);
  }

  public RpcxProtocolBuilder connectTimeout(Duration connectTimeout) {
    return new RpcxProtocolBuilder(
        target, connections, timeout, positive(connectTimeout, "rpcx.connectTimeout"), serializeType, compression, heartbeat, maxFrameLength, metadata, reconnects);
  }

  /**
   * The serialize type of calls that do not choose their own codec ({@code .call(..).payload(..)} and
   * {@code .bytes()}); protobuf by default.
   */
  public RpcxProtocolBuilder serializeType(SerializeType type) {
    if (type == null) {
      throw new IllegalArgumentException("rpcx.serializeType: expected none, json, protobuf, msgpack or thrift, got null");
    }
    return new RpcxProtocolBuilder(target, connections, timeout, connectTimeout, type, compression, heartbeat, maxFrameLength, metadata, reconnects);
  }

  /** {@code serializeType("json")}: the same, by name. */
  public RpcxProtocolBuilder serializeType(String type) {
    return serializeType(SerializeType.parse(type, "rpcx.serializeType"));
  }

  /** Gzip request payloads over 1024 bytes, as rpcx's Go client does with CompressType gzip. */
  public RpcxProtocolBuilder gzip() {
    return compression(CompressType.GZIP);
  }

  public RpcxProtocolBuilder compression(CompressType type) {
    if (type == null) {
      throw new IllegalArgumentException("rpcx.compression: expected NONE or GZIP, got null");
    }
    return new RpcxProtocolBuilder(target, connections, timeout, connectTimeout, serializeType, type, heartbeat, maxFrameLength, metadata, reconnects);
  }

  /**
   * Sends a heartbeat on every connection at this interval; a heartbeat unanswered within the interval
   * (at least one second) closes the connection, and its pending calls fail.
   */
  public RpcxProtocolBuilder heartbeat(Duration interval) {
    return new RpcxProtocolBuilder(
        target, connections, timeout, connectTimeout, serializeType, compression, positive(interval, "rpcx.heartbeat"), maxFrameLength, metadata, reconnects);
  }

  /** The largest reply frame accepted, in bytes; a larger one closes the connection. 16 MiB by default. */
  public RpcxProtocolBuilder maxFrameLength(int bytes) {
    if (bytes < 16) {
      throw new IllegalArgumentException("rpcx.maxFrameLength: expected at least 16 bytes, got " + bytes);
    }
    return new RpcxProtocolBuilder(target, connections, timeout, connectTimeout, serializeType, compression, heartbeat, bytes, metadata, reconnects);
  }

  /** Metadata sent with every call, such as {@code __AUTH}. */
  public RpcxProtocolBuilder metadata(String key, String value) {
    if (key == null || key.isEmpty() || value == null) {
      throw new IllegalArgumentException("rpcx.metadata: expected a non-empty key and a value, got " + key + "=" + value);
    }
    Map<String, String> all = new LinkedHashMap<>(metadata);
    all.put(key, value);
    return new RpcxProtocolBuilder(target, connections, timeout, connectTimeout, serializeType, compression, heartbeat, maxFrameLength, Map.copyOf(all), reconnects);
  }

  /**
   * How long to wait before connecting again to a target that refused a connection or closed it before
   * answering: {@code firstDelay}, doubled at every further failure up to {@code maxDelay}, with jitter;
   * meanwhile calls are RECONNECTING KOs at once (default 100 ms up to 5 s; see docs/rpcx.md).
   */
  public RpcxProtocolBuilder reconnectBackoff(Duration firstDelay, Duration maxDelay) {
    return new RpcxProtocolBuilder(target, connections, timeout, connectTimeout, serializeType, compression, heartbeat, maxFrameLength, metadata,
        ReconnectBackoff.Settings.of("rpcx.reconnectBackoff", firstDelay, maxDelay));
  }

  @Override
  public RpcxProtocol protocol() {
    if (target == null) {
      throw new IllegalStateException("rpcx: no target: add .target(\"host:port\")");
    }
    return new RpcxProtocol(
        new RpcxClientSettings(target, connectTimeout, maxFrameLength, compression, heartbeat),
        connections,
        timeout,
        serializeType,
        metadata,
        reconnects);
  }

  private static Duration positive(Duration d, String what) {
    if (d == null || d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(what + ": expected a positive duration, got " + d);
    }
    return d;
  }
}
