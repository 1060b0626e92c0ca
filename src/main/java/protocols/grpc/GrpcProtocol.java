package protocols.grpc;

import java.time.Duration;
import java.util.Map;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;
import protocols.core.ReconnectBackoff;
import protocols.core.RpcProtocol;
import protocols.core.RpcProtocolKey;

/** The settings of a gRPC target, built with {@link GrpcProtocolBuilder}. */
public final class GrpcProtocol implements RpcProtocol {

  static final RpcProtocolKey<GrpcProtocol, io.grpc.ManagedChannel> KEY =
      new RpcProtocolKey<>(GrpcProtocol.class, "grpc", new GrpcChannels());

  final HostAndPort target;
  final String trustedCaFile; // null: plaintext
  final String authority; // null: the target's host
  final ConnectionModel connections;
  final Duration deadline;
  final int maxInboundMessageSize;
  final Map<String, String> headers;
  final GrpcChannelOptions options;
  final GrpcSchema schema; // null: calls by generated method descriptors only
  private GrpcServices services; // the schema, read once
  private Exception servicesFailure;

  GrpcProtocol(
      HostAndPort target,
      String trustedCaFile,
      String authority,
      ConnectionModel connections,
      Duration deadline,
      int maxInboundMessageSize,
      Map<String, String> headers,
      GrpcSchema schema,
      GrpcChannelOptions options) {
    this.target = target;
    this.trustedCaFile = trustedCaFile;
    this.authority = authority;
    this.connections = connections;
    this.deadline = deadline;
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.headers = headers;
    this.schema = schema;
    this.options = options;
  }

  /** The services of the schema, read on first use; a failure to read it is kept and thrown again. */
  synchronized GrpcServices services() throws Exception {
    if (schema == null) {
      throw new IllegalStateException(
          "grpc: a method called by name needs a schema on the protocol: add .reflection(),"
              + " .descriptorSet(\"x.protoset\") or .protoFiles(\"x.proto\")");
    }
    if (services == null && servicesFailure == null) {
      try {
        services = schema.load(this);
      } catch (Exception e) {
        servicesFailure = e;
      }
    }
    if (servicesFailure != null) {
      throw servicesFailure;
    }
    return services;
  }

  @Override
  public Duration defaultTimeout() {
    return deadline;
  }

  @Override
  public ConnectionModel connectionModel() {
    return connections;
  }

  @Override
  public ReconnectBackoff.Settings reconnectBackoff() {
    return options.reconnects();
  }

  @Override
  public String toString() {
    return "grpc "
        + target
        + (trustedCaFile == null ? " plaintext" : " TLS")
        + ", "
        + connections
        + ", deadline "
        + deadline.toMillis()
        + " ms";
  }
}
