package protocols.thrift;

import protocols.core.ClientFactory;
import protocols.core.ClientIo;
import protocols.thrift.client.ThriftConnection;

/** Opens the connections of a {@link ThriftProtocol}: one per client of its connection model. */
final class ThriftConnections implements ClientFactory<ThriftProtocol, ThriftConnection> {

  @Override
  public ThriftConnection open(ThriftProtocol protocol, ClientIo io) {
    // connects in the background, on Gatling's loop: replies come back on the users' own thread
    return ThriftConnection.open(protocol.client, io.eventLoop(), io.socketChannels());
  }

  @Override
  public void close(ThriftConnection connection) {
    connection.close();
  }

  /** A connection that failed or was closed is replaced by a new one on its next use. */
  @Override
  public boolean isUsable(ThriftConnection connection) {
    return connection.isUsable();
  }

  @Override
  public Throwable failedBeforeAnswering(ThriftConnection connection) {
    return connection.failedBeforeAnswering();
  }

  @Override
  public boolean answered(ThriftConnection connection) {
    return connection.anyReply();
  }
}
