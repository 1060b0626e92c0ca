package protocols.grpc;

import io.gatling.javaapi.core.ProtocolBuilder;
import java.io.File;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;

/**
 * {@code grpc.target("localhost:50051").sharedChannels(4).deadline(Duration.ofSeconds(5))}: where and
 * how a simulation's gRPC calls go. Immutable; every method returns a new builder.
 */
public final class GrpcProtocolBuilder implements ProtocolBuilder {

  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(10);
  public static final int DEFAULT_MAX_INBOUND_MESSAGE_SIZE = 4 * 1024 * 1024;

  private final HostAndPort target;
  private final String trustedCaFile;
  private final String authority;
  private final ConnectionModel connections;
  private final Duration deadline;
  private final int maxInboundMessageSize;
  private final Map<String, String> headers;

  GrpcProtocolBuilder() {
    this(
        null,
        null,
        null,
        ConnectionModel.shared(1),
        DEFAULT_DEADLINE,
        DEFAULT_MAX_INBOUND_MESSAGE_SIZE,
        Map.of());
  }

  private GrpcProtocolBuilder(
      HostAndPort target,
      String trustedCaFile,
      String authority,
      ConnectionModel connections,
      Duration deadline,
      int maxInboundMessageSize,
      Map<String, String> headers) {
    this.target = target;
    this.trustedCaFile = trustedCaFile;
    this.authority = authority;
    this.connections = connections;
    this.deadline = deadline;
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.headers = headers;
  }

  /** The server, as {@code host:port}. */
  public GrpcProtocolBuilder target(String hostAndPort) {
    return target(HostAndPort.parse(hostAndPort, "grpc.target"));
  }

  public GrpcProtocolBuilder target(HostAndPort target) {
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, connections, deadline, maxInboundMessageSize, headers);
  }

  /** Plaintext HTTP/2 (the default). */
  public GrpcProtocolBuilder plaintext() {
    return new GrpcProtocolBuilder(
        target, null, authority, connections, deadline, maxInboundMessageSize, headers);
  }

  /** TLS, trusting the certificate authorities of a PEM file. */
  public GrpcProtocolBuilder tls(String trustedCaPemFile) {
    if (trustedCaPemFile == null || !new File(trustedCaPemFile).canRead()) {
      throw new IllegalArgumentException(
          "grpc.tls: expected a readable PEM file of trusted CA certificates, got " + trustedCaPemFile);
    }
    return new GrpcProtocolBuilder(
        target, trustedCaPemFile, authority, connections, deadline, maxInboundMessageSize, headers);
  }

  /** The authority (TLS host name) to ask for, when it is not the target's host. */
  public GrpcProtocolBuilder overrideAuthority(String authority) {
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, connections, deadline, maxInboundMessageSize, headers);
  }

  /** {@code count} channels (each its own HTTP/2 connection) shared round-robin by all users. */
  public GrpcProtocolBuilder sharedChannels(int count) {
    return connections(ConnectionModel.shared(count));
  }

  /** One channel per virtual user, opened on its first call and closed when it exits. */
  public GrpcProtocolBuilder channelPerUser() {
    return connections(ConnectionModel.perUser());
  }

  public GrpcProtocolBuilder connections(ConnectionModel model) {
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, model, deadline, maxInboundMessageSize, headers);
  }

  /** The deadline of calls that set none. */
  public GrpcProtocolBuilder deadline(Duration deadline) {
    if (deadline == null || deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("grpc.deadline: expected a positive duration, got " + deadline);
    }
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, connections, deadline, maxInboundMessageSize, headers);
  }

  public GrpcProtocolBuilder maxInboundMessageSize(int bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException(
          "grpc.maxInboundMessageSize: expected a positive number of bytes, got " + bytes);
    }
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, connections, deadline, bytes, headers);
  }

  /** Metadata sent with every call (ASCII keys; a key ending in {@code -bin} is not supported). */
  public GrpcProtocolBuilder header(String key, String value) {
    GrpcHeaders.key(key); // validates
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.put(key, value);
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, connections, deadline, maxInboundMessageSize, Map.copyOf(all));
  }

  @Override
  public GrpcProtocol protocol() {
    if (target == null) {
      throw new IllegalStateException("grpc: no target: add .target(\"host:port\")");
    }
    return new GrpcProtocol(
        target, trustedCaFile, authority, connections, deadline, maxInboundMessageSize, headers);
  }

}
