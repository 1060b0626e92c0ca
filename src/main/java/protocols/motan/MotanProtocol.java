package protocols.motan;

import java.time.Duration;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;
import protocols.core.ReconnectBackoff;
import protocols.core.RpcProtocol;
import protocols.core.RpcProtocolKey;

/** The settings of a Motan target, built with {@link MotanProtocolBuilder}. */
public final class MotanProtocol implements RpcProtocol {

  static final RpcProtocolKey<MotanProtocol, MotanClient> KEY =
      new RpcProtocolKey<>(MotanProtocol.class, "motan", new MotanClients());

  final HostAndPort target; // null when a registry finds the providers
  final MotanRegistry registry; // null: direct to target
  final String group;
  final String version;
  final Duration requestTimeout;
  final int minClientConnections;
  final int maxClientConnections;
  final String serialization;
  final ConnectionModel connections;
  final ReconnectBackoff.Settings reconnects;

  MotanProtocol(
      HostAndPort target,
      MotanRegistry registry,
      String group,
      String version,
      Duration requestTimeout,
      int minClientConnections,
      int maxClientConnections,
      String serialization,
      ConnectionModel connections,
      ReconnectBackoff.Settings reconnects) {
    this.reconnects = reconnects;
    this.target = target;
    this.registry = registry;
    this.group = group;
    this.version = version;
    this.requestTimeout = requestTimeout;
    this.minClientConnections = minClientConnections;
    this.maxClientConnections = maxClientConnections;
    this.serialization = serialization;
    this.connections = connections;
  }

  @Override
  public Duration defaultTimeout() {
    return requestTimeout;
  }

  @Override
  public ReconnectBackoff.Settings reconnectBackoff() {
    return reconnects;
  }

  @Override
  public ConnectionModel connectionModel() {
    return connections;
  }

  /** Where calls go, as a report line or a KO message says it. */
  String where() {
    return registry == null ? "motan://" + target : registry.toString();
  }

  @Override
  public String toString() {
    return "motan "
        + where()
        + ", group "
        + group
        + ", version "
        + version
        + ", "
        + serialization
        + ", "
        + connections
        + " of "
        + minClientConnections
        + " connection(s) each, request timeout "
        + requestTimeout.toMillis()
        + " ms";
  }
}
