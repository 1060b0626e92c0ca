package protocols.core;

import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import scala.Function1;
import scala.runtime.BoxedUnit;

/** One simulation's state for one protocol: the protocol settings and its clients. */
public final class RpcComponents<P extends RpcProtocol, C> implements ProtocolComponents, AutoCloseable {

  private final P protocol;
  private final ClientPool<P, C> clients;

  RpcComponents(P protocol, ClientFactory<P, C> factory) {
    this.protocol = protocol;
    this.clients = new ClientPool<>(protocol, factory, protocol.connectionModel());
  }

  public P protocol() {
    return protocol;
  }

  C clientFor(long userId) throws Exception {
    return clients.clientFor(userId);
  }

  @Override
  public Function1<Session, Session> onStart() {
    return Session.Identity();
  }

  @Override
  public Function1<Session, BoxedUnit> onExit() {
    if (!protocol.connectionModel().perUserClients()) {
      return ProtocolComponents.NoopOnExit();
    }
    return session -> {
      clients.releaseUser(session.userId());
      return BoxedUnit.UNIT;
    };
  }

  @Override
  public void close() {
    clients.close();
  }
}
