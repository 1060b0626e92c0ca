package protocols.rpcx;

import protocols.core.ClientIo;
import protocols.core.PooledClientFactory;
import protocols.rpcx.client.RpcxConnection;

/** Opens the connections of an {@link RpcxProtocol}: one per client of the connection model. */
final class RpcxClients implements PooledClientFactory<RpcxProtocol, RpcxConnection> {

  @Override
  public RpcxConnection open(RpcxProtocol protocol, ClientIo io) {
    // connects in the background, on Gatling's loop: replies come back on the users' own thread
    return RpcxConnection.open(protocol.client, io.eventLoop(), io.socketChannels(), !protocol.connectionModel().perUserClients());
  }
}
