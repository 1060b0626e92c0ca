package protocols.rpcx;

import protocols.core.ClientFactory;
import protocols.core.ClientIo;
import protocols.rpcx.client.RpcxConnection;

/** Opens the connections of an {@link RpcxProtocol}: one per client of the connection model. */
final class RpcxClients implements ClientFactory<RpcxProtocol, RpcxConnection> {

  @Override
  public RpcxConnection open(RpcxProtocol protocol, ClientIo io) {
    // connects in the background, on Gatling's loop: replies come back on the users' own thread
    return RpcxConnection.open(protocol.client, io.eventLoop(), io.socketChannels());
  }

  @Override
  public void close(RpcxConnection connection) {
    connection.close();
  }

  /** A connection that failed or was closed is replaced by a new one on its next use. */
  @Override
  public boolean isUsable(RpcxConnection connection) {
    return connection.isUsable();
  }

  @Override
  public Throwable failedBeforeAnswering(RpcxConnection connection) {
    return connection.failedBeforeAnswering();
  }

  @Override
  public boolean answered(RpcxConnection connection) {
    return connection.anyReply();
  }
}
