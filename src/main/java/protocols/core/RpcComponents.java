package protocols.core;

import io.gatling.core.CoreComponents;
import io.gatling.core.config.NettyConfiguration;
import io.gatling.core.protocol.ProtocolComponents;
import io.gatling.core.session.Session;
import io.gatling.netty.util.Transports;
import scala.Function1;
import scala.runtime.BoxedUnit;

/** One simulation's state for one protocol: the protocol settings and its clients. */
public final class RpcComponents<P extends RpcProtocol, C> implements ProtocolComponents, AutoCloseable {

  private final P protocol;
  private final ClientPool<P, C> clients;

  RpcComponents(P protocol, ClientFactory<P, C> factory, CoreComponents core) {
    this.protocol = protocol;
    ResponseBatch.checkSettings();
    StripedRecorder.checkSettings();
    NettyConfiguration netty = core.configuration().netty();
    this.clients =
        new ClientPool<>(
            protocol,
            factory,
            protocol.connectionModel(),
            core.eventLoopGroup(),
            // the socket type Gatling's loops were built for, as Gatling's HTTP client picks it
            Transports.newSocketChannelFactory(netty.useNativeTransport(), netty.useIoUring()),
            protocol.reconnectBackoff());
  }

  public P protocol() {
    return protocol;
  }

  C clientFor(Session session) throws Exception {
    return clients.clientFor(session);
  }

  /** {@code session}, keeping {@code client} for the user's next call ({@link ClientPool#holding}). */
  Session holding(Session session, C client) {
    return clients.holding(session, client);
  }

  @Override
  public Function1<Session, Session> onStart() {
    return Session.Identity();
  }

  @Override
  public Function1<Session, BoxedUnit> onExit() {
    boolean perUser = protocol.connectionModel().perUserClients();
    return session -> {
      // streams first: a per-user client's close would fail them with a less telling message
      OpenStream.cancelAll(session, this);
      if (perUser) {
        clients.releaseUser(session.userId());
      }
      // before Gatling counts the user out: when the last user ends, all its responses are in the stats
      ResponseBatch.postBeforeExit(session);
      return BoxedUnit.UNIT;
    };
  }

  @Override
  public void close() {
    clients.close();
  }
}
