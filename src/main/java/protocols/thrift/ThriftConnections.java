package protocols.thrift;

import protocols.core.ClientFactory;
import protocols.core.ClientIo;

/**
 * Opens the connection pools of a {@link ThriftProtocol}. Opening a pool opens no socket: connections
 * are made on demand, on the protocol's connector threads, so this never blocks a virtual user.
 */
final class ThriftConnections implements ClientFactory<ThriftProtocol, ThriftPool> {

  @Override
  public ThriftPool open(ThriftProtocol protocol, ClientIo io) throws Exception { // libthrift runs its own selector threads
    return new ThriftPool(protocol, protocol.runtime.acquire(), protocol.poolSize());
  }

  @Override
  public void close(ThriftPool pool) {
    pool.close();
  }
}
