package protocols.motan;

import protocols.core.ClientIo;
import protocols.core.PooledClientFactory;

/** Opens the {@link MotanClient}s of a {@link MotanProtocol}; each says itself whether it is still usable. */
final class MotanClients implements PooledClientFactory<MotanProtocol, MotanClient> {

  @Override
  public MotanClient open(MotanProtocol protocol, ClientIo io) { // Motan brings its own Netty threads
    // cheap: its referers are made by the first call of each service, on a sender thread
    return new MotanClient(protocol);
  }
}
