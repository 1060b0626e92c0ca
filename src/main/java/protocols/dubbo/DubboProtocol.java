package protocols.dubbo;

import java.time.Duration;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;
import protocols.core.ReconnectBackoff;
import protocols.core.RpcProtocol;
import protocols.core.RpcProtocolKey;

/** The settings of a Dubbo target, built with {@link DubboProtocolBuilder}; one per simulation. */
public final class DubboProtocol implements RpcProtocol {

  static final RpcProtocolKey<DubboProtocol, DubboClient> KEY =
      new RpcProtocolKey<>(DubboProtocol.class, "dubbo", new DubboClients());

  final HostAndPort target; // null: providers come from the registry
  final String registry; // null: direct to target
  final String protocolName;
  final String serialization; // null: Dubbo's default (hessian2)
  final Duration timeout;
  final ConnectionModel connections;
  final String application;
  final Integer qosPort; // null: QoS off
  final Duration registryTimeout;
  final DubboDiscovery discovery;
  final ReconnectBackoff.Settings reconnects;

  /** This simulation's Dubbo consumer: created on first use, destroyed when the simulation ends. */
  final DubboConsumer consumer;

  DubboProtocol(
      HostAndPort target,
      String registry,
      String protocolName,
      String serialization,
      Duration timeout,
      ConnectionModel connections,
      String application,
      Integer qosPort,
      Duration registryTimeout,
      DubboDiscovery discovery,
      ReconnectBackoff.Settings reconnects) {
    this.target = target;
    this.registry = registry;
    this.protocolName = protocolName;
    this.serialization = serialization;
    this.timeout = timeout;
    this.connections = connections;
    this.application = application;
    this.qosPort = qosPort;
    this.registryTimeout = registryTimeout;
    this.discovery = discovery;
    this.reconnects = reconnects;
    this.consumer = new DubboConsumer(this);
  }

  /** Where providers are found, as messages name it. */
  String address() {
    return registry != null ? registry : protocolName + "://" + target;
  }

  @Override
  public Duration defaultTimeout() {
    return timeout;
  }

  @Override
  public ReconnectBackoff.Settings reconnectBackoff() {
    return reconnects;
  }

  @Override
  public ConnectionModel connectionModel() {
    return connections;
  }

  @Override
  public String toString() {
    return "dubbo "
        + (registry != null ? "providers of " + protocolName + " from " + registry + " (" + discovery + " discovery)" : address())
        + ", serialization "
        + (serialization == null ? "hessian2 (default)" : serialization)
        + ", "
        + connections
        + ", timeout "
        + timeout.toMillis()
        + " ms";
  }
}
