package protocols.thrift;

import java.time.Duration;
import protocols.core.ConnectionModel;
import protocols.core.ReconnectBackoff;
import protocols.core.RpcProtocol;
import protocols.core.RpcProtocolKey;
import protocols.thrift.client.ThriftClientSettings;
import protocols.thrift.client.ThriftConnection;

/** The settings of a Thrift target, built with {@link ThriftProtocolBuilder}. */
public final class ThriftProtocol implements RpcProtocol {

  static final RpcProtocolKey<ThriftProtocol, ThriftConnection> KEY =
      new RpcProtocolKey<>(ThriftProtocol.class, "thrift", new ThriftConnections());

  final ThriftClientSettings client;
  final ConnectionModel connections;
  final Duration timeout;
  final ReconnectBackoff.Settings reconnects;

  ThriftProtocol(
      ThriftClientSettings client, ConnectionModel connections, Duration timeout, ReconnectBackoff.Settings reconnects) {
    this.client = client;
    this.connections = connections;
    this.timeout = timeout;
    this.reconnects = reconnects;
  }

  @Override
  public ReconnectBackoff.Settings reconnectBackoff() {
    return reconnects;
  }

  @Override
  public Duration defaultTimeout() {
    return timeout;
  }

  @Override
  public ConnectionModel connectionModel() {
    return connections;
  }

  @Override
  public String toString() {
    return "thrift "
        + client.target()
        + ", "
        + client.wire()
        + ", "
        + connections
        + ", connect timeout "
        + client.connectTimeout().toMillis()
        + " ms, timeout "
        + timeout.toMillis()
        + " ms";
  }
}
