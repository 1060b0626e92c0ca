package protocols.dubbo;

import protocols.core.ClientIo;
import protocols.core.PooledClientFactory;

/** Opens the Dubbo clients of a {@link DubboProtocol}; each says itself whether it is still usable. */
final class DubboClients implements PooledClientFactory<DubboProtocol, DubboClient> {

  @Override
  public DubboClient open(DubboProtocol protocol, ClientIo io) { // Dubbo brings its own Netty threads
    return protocol.consumer.openClient();
  }
}
