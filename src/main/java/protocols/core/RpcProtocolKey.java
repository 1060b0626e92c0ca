package protocols.core;

import io.gatling.core.CoreComponents;
import io.gatling.core.config.GatlingConfiguration;
import io.gatling.core.protocol.Protocol;
import io.gatling.core.protocol.ProtocolKey;
import scala.Function1;
import scala.runtime.BoxedUnit;

/**
 * The Gatling protocol key of one framework: Gatling finds the framework's components with it, creates
 * them once per simulation and closes their clients when the simulation terminates.
 *
 * <p>Keep one instance per protocol class, in a {@code static final} field of that class.
 */
public final class RpcProtocolKey<P extends RpcProtocol, C>
    implements ProtocolKey<P, RpcComponents<P, C>> {

  private final Class<P> protocolClass;
  private final String dslName;
  private final ClientFactory<P, C> clients;

  public RpcProtocolKey(Class<P> protocolClass, String dslName, ClientFactory<P, C> clients) {
    this.protocolClass = protocolClass;
    this.dslName = dslName;
    this.clients = clients;
  }

  /** The name of the framework's DSL entry ({@code grpc}, {@code thrift}, ...), used in messages. */
  public String dslName() {
    return dslName;
  }

  @Override
  @SuppressWarnings("unchecked")
  public Class<Protocol> protocolClass() {
    // must be exactly the protocol's class, or Gatling silently falls back to defaultProtocolValue
    return (Class<Protocol>) (Class<?>) protocolClass;
  }

  @Override
  public P defaultProtocolValue(GatlingConfiguration configuration) {
    throw new IllegalStateException(
        "No "
            + dslName
            + " protocol configured: add .protocols("
            + dslName
            + ".target(\"host:port\")) to setUp(...)");
  }

  @Override
  public Function1<P, RpcComponents<P, C>> newComponents(CoreComponents coreComponents) {
    return protocol -> {
      RpcComponents<P, C> components = new RpcComponents<>(protocol, clients, coreComponents);
      coreComponents
          .actorSystem()
          .registerOnTermination(
              () -> {
                components.close();
                return BoxedUnit.UNIT;
              });
      return components;
    };
  }
}
