package protocols.motan;

import protocols.core.ClientFactory;
import protocols.core.ClientIo;

/** Opens and closes the {@link MotanClient}s of a {@link MotanProtocol}. */
final class MotanClients implements ClientFactory<MotanProtocol, MotanClient> {

  @Override
  public MotanClient open(MotanProtocol protocol, ClientIo io) { // Motan brings its own Netty threads
    // cheap: its referers are made by the first call of each service, on a sender thread
    return new MotanClient(protocol);
  }

  @Override
  public void close(MotanClient client) {
    client.close();
  }

  @Override
  public boolean isUsable(MotanClient client) {
    // a Motan client marks a provider unavailable after failures and heartbeats it back itself
    return client.isOpen();
  }
}
