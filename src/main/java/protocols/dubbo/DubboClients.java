package protocols.dubbo;

import protocols.core.ClientFactory;
import protocols.core.ClientIo;

/** Opens and closes the Dubbo clients of a {@link DubboProtocol}. */
final class DubboClients implements ClientFactory<DubboProtocol, DubboClient> {

  @Override
  public DubboClient open(DubboProtocol protocol, ClientIo io) { // Dubbo brings its own Netty threads
    return protocol.consumer.openClient();
  }

  @Override
  public void close(DubboClient client) {
    client.close();
  }

  @Override
  public boolean isUsable(DubboClient client) {
    // false once a call could not reach the provider: replaced (behind the reconnect backoff if it never answered)
    return client.isUsable();
  }

  @Override
  public Throwable failedBeforeAnswering(DubboClient client) {
    return client.failedBeforeAnswering();
  }

  @Override
  public boolean answered(DubboClient client) {
    return client.hasAnswered();
  }
}
