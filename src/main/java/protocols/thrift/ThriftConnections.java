package protocols.thrift;

import protocols.core.ClientIo;
import protocols.core.PooledClientFactory;
import protocols.thrift.client.ThriftConnection;

/** Opens the connections of a {@link ThriftProtocol}: one per client of its connection model. */
final class ThriftConnections implements PooledClientFactory<ThriftProtocol, ThriftConnection> {

  @Override
  public ThriftConnection open(ThriftProtocol protocol, ClientIo io) {
    // connects in the background, on Gatling's loop: replies come back on the users' own thread
    return ThriftConnection.open(protocol.client, io.eventLoop(), io.socketChannels(), !protocol.connectionModel().perUserClients());
  }
}
