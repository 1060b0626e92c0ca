package protocols.motan;

import com.weibo.api.motan.common.MotanConstants;
import com.weibo.api.motan.config.ProtocolConfig;
import com.weibo.api.motan.config.RefererConfig;
import com.weibo.api.motan.config.RegistryConfig;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import protocols.core.SelfConnectingClient;

/**
 * One Motan client of a simulation: one Motan referer per service interface it is asked for, each with
 * its own Netty client of {@code minClientConnections} connections. Referers are made on first use.
 */
final class MotanClient extends SelfConnectingClient {

  private static final Logger LOG = LoggerFactory.getLogger(MotanClient.class);

  private final MotanProtocol protocol;
  private final Map<Class<?>, RefererConfig<?>> referers = new ConcurrentHashMap<>();
  private volatile boolean closed;

  MotanClient(MotanProtocol protocol) {
    this.protocol = protocol;
  }

  /** The proxy of {@code type}, made on first use (which may take a while: call off Gatling's threads). */
  <S> S service(Class<S> type) {
    if (closed) {
      Throwable unreachable = unreachableCause();
      if (unreachable instanceof RuntimeException motan) {
        // the pool closed this client after another call found the provider unreachable, while this
        // call was on its way to a sender thread: it fails for that same reason
        throw motan;
      }
      throw new IllegalStateException("the simulation is over: its Motan clients are closed");
    }
    RefererConfig<?> referer = referers.computeIfAbsent(type, this::refer);
    return type.cast(referer.getRef());
  }

  private <S> RefererConfig<S> refer(Class<S> type) {
    ProtocolConfig motan = new ProtocolConfig();
    motan.setId(MotanConstants.PROTOCOL_MOTAN);
    motan.setName(MotanConstants.PROTOCOL_MOTAN);
    motan.setSerialization(protocol.serialization);
    motan.setMinClientConnection(protocol.minClientConnections);
    motan.setMaxClientConnection(protocol.maxClientConnections);

    RefererConfig<S> referer = new RefererConfig<>();
    referer.setInterface(type);
    referer.setProtocol(motan);
    referer.setGroup(protocol.group);
    referer.setVersion(protocol.version);
    referer.setRequestTimeout((int) Math.min(Integer.MAX_VALUE, protocol.requestTimeout.toMillis()));
    // connect while the referer is made (on a sender thread): Motan's background connect races with the
    // first call's own connect and warns "the channel already open"
    referer.setAsyncInitConnection(false);
    // a registry without providers yet gives a referer that waits for them, rather than an error per call
    referer.setCheck(false);
    if (protocol.registry == null) {
      referer.setDirectUrl(protocol.target.host() + ":" + protocol.target.port());
    } else {
      RegistryConfig registry = new RegistryConfig();
      registry.setId(protocol.registry.protocol());
      registry.setName(protocol.registry.protocol());
      registry.setRegProtocol(protocol.registry.protocol());
      registry.setAddress(protocol.registry.address());
      referer.setRegistry(registry);
    }
    referer.getRef(); // builds the cluster now, so that a bad configuration fails this call
    return referer;
  }

  @Override
  protected boolean isOpen() {
    return !closed;
  }

  /**
   * Motan would try again by itself (its Netty client reconnects on every call, and heartbeats a provider
   * it marked down every 500 ms: about one attempt a second per client against a target that drops
   * connections), so a call that finds no provider turns the client unusable: the pool closes it at its
   * next use (calls in flight end as Motan ends them) and decides when a new one may connect. Through a
   * registry, its subscription waits for providers instead.
   */
  @Override
  protected boolean backsOff() {
    return protocol.registry == null;
  }

  /** Without Motan's request id and local port, so that the KOs group by message. */
  @Override
  protected String describeUnreachable(Throwable cause) {
    return MotanFailures.describe(cause).message();
  }

  @Override
  public void close() {
    closed = true;
    for (RefererConfig<?> referer : referers.values()) {
      try {
        referer.destroy();
      } catch (RuntimeException e) {
        LOG.debug("closing a Motan referer failed", e);
      }
    }
    referers.clear();
  }
}
