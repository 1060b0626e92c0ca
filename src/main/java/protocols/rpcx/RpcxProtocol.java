package protocols.rpcx;

import java.time.Duration;
import java.util.Map;
import protocols.core.ConnectionModel;
import protocols.core.RpcProtocol;
import protocols.core.ReconnectBackoff;
import protocols.core.RpcProtocolKey;
import protocols.rpcx.client.RpcxClientSettings;
import protocols.rpcx.client.RpcxConnection;
import protocols.rpcx.codec.SerializeType;

/** The settings of an rpcx target, built with {@link RpcxProtocolBuilder}. */
public final class RpcxProtocol implements RpcProtocol {

  static final RpcProtocolKey<RpcxProtocol, RpcxConnection> KEY =
      new RpcProtocolKey<>(RpcxProtocol.class, "rpcx", new RpcxClients());

  final RpcxClientSettings client;
  final ConnectionModel connections;
  final Duration timeout;
  final SerializeType serializeType;
  final Map<String, String> metadata;
  final ReconnectBackoff.Settings reconnects;

  RpcxProtocol(
      RpcxClientSettings client,
      ConnectionModel connections,
      Duration timeout,
      SerializeType serializeType,
      Map<String, String> metadata,
      ReconnectBackoff.Settings reconnects) {
    this.client = client;
    this.connections = connections;
    this.timeout = timeout;
    this.serializeType = serializeType;
    this.metadata = metadata;
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
    return "rpcx "
        + client.target()
        + ", "
        + connections
        + ", timeout "
        + timeout.toMillis()
        + " ms, "
        + serializeType
        + ", compression "
        + client.compression()
        + (client.heartbeatInterval().isZero() ? "" : ", heartbeat every " + client.heartbeatInterval().toMillis() + " ms");
  }
}
