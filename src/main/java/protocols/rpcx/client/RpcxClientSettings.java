package protocols.rpcx.client;

import java.time.Duration;
import java.util.Objects;
import protocols.core.HostAndPort;
import protocols.rpcx.codec.CompressType;

/**
 * How one rpcx connection behaves.
 *
 * @param target the server
 * @param connectTimeout how long a connection attempt may take
 * @param maxFrameLength the largest reply frame accepted (bytes after the 16-byte prefix)
 * @param compression {@link CompressType#GZIP}: payloads over {@value #COMPRESS_THRESHOLD} bytes are
 *     gzipped, as rpcx's Go client does
 * @param heartbeatInterval time between heartbeats; {@link Duration#ZERO} for none. A heartbeat
 *     unanswered within the interval (at least one second) closes the connection.
 */
public record RpcxClientSettings(
    HostAndPort target,
    Duration connectTimeout,
    int maxFrameLength,
    CompressType compression,
    Duration heartbeatInterval) {

  /** rpcx compresses only payloads larger than this. */
  public static final int COMPRESS_THRESHOLD = 1024;

  public RpcxClientSettings {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(compression, "compression");
    Objects.requireNonNull(heartbeatInterval, "heartbeatInterval");
  }

  public static RpcxClientSettings of(HostAndPort target) {
    return new RpcxClientSettings(
        target,
        Duration.ofSeconds(5),
        protocols.rpcx.codec.RpcxDecoder.DEFAULT_MAX_FRAME_LENGTH,
        CompressType.NONE,
        Duration.ZERO);
  }

  public RpcxClientSettings withHeartbeat(Duration interval) {
    return new RpcxClientSettings(target, connectTimeout, maxFrameLength, compression, interval);
  }

  public RpcxClientSettings withCompression(CompressType type) {
    return new RpcxClientSettings(target, connectTimeout, maxFrameLength, type, heartbeatInterval);
  }

  public RpcxClientSettings withMaxFrameLength(int bytes) {
    return new RpcxClientSettings(target, connectTimeout, bytes, compression, heartbeatInterval);
  }

  public RpcxClientSettings withConnectTimeout(Duration timeout) {
    return new RpcxClientSettings(target, timeout, maxFrameLength, compression, heartbeatInterval);
  }
}
