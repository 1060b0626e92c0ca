package protocols.dubbo;

import protocols.core.ClientFactory;

/** Opens and closes the Dubbo clients of a {@link DubboProtocol}. */
final class DubboClients implements ClientFactory<DubboProtocol, DubboClient> {

  @Override
  public DubboClient open(DubboProtocol protocol) {
    return protocol.consumer.openClient();
  }

  @Override
  public void close(DubboClient client) {
    client.close();
  }

  @Override
  public boolean isUsable(DubboClient client) {
    return client.isOpen();
  }
}
