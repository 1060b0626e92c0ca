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
    // false once a call found no provider: replaced (behind the reconnect backoff if it never answered)
    return client.isOpen();
  }

  @Override
  public Throwable failedBeforeAnswering(MotanClient client) {
    return client.failedBeforeAnswering();
  }

  @Override
  public boolean answered(MotanClient client) {
    return client.hasAnswered();
  }
}
