package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.dubbo.DubboDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.dubbo.DubboBenchmarkServer;
import benchmark.dubbo.DubboBenchmarkService;
import protocols.core.ConnectionModel;
import protocols.dubbo.DubboProtocolBuilder;

/**
 * The seed's Dubbo benchmark: {@code say(byte[])} carrying the 581-byte message, over the shared
 * staircase. {@code -Dtarget=host:port} calls a running provider, {@code -Dregistry=zookeeper://host:port}
 * finds providers in a registry ({@code -DserviceDiscovery=application} there: Dubbo 3's application-level
 * discovery); without either the simulation starts its own provider. {@code -Dprotocol=tri}: Triple.
 *
 * <p>Connections: one shared connection unless {@code -Dconnections} says otherwise (Dubbo's own default;
 * a Dubbo client costs tens of ms of CPU to open, too much for one per user at thousands of users).
 */
public class DubboSimulation extends BenchmarkSimulation {

  private static final byte[] REQUEST = BenchmarkMessages.request().toByteArray();

  public DubboSimulation() {
    super(property("registry") != null
        ? settings -> Target.none()
        : embedded(s -> DubboBenchmarkServer.start("127.0.0.1", 0, s.serviceTime(), protocolName(), null)));
    String registry = property("registry");
    ConnectionModel connections = property("connections") == null ? ConnectionModel.shared(1) : settings.connections();
    DubboProtocolBuilder protocol = registry != null ? dubbo.registry(registry) : dubbo.target(target.address());
    protocol = protocol.protocol(protocolName());
    if (property("serviceDiscovery") != null) {
      protocol = protocol.serviceDiscovery(property("serviceDiscovery"));
    }
    benchmark(
        "Dubbo say",
        exec(
            dubbo(Staircase.named("Say"))
                .service(DubboBenchmarkService.class)
                .method(DubboBenchmarkService::sayAsync)
                .payload(REQUEST)
                .check(response(BenchmarkMessages::field1).is(BenchmarkMessages.OK))),
        protocol.connections(connections));
  }

  /** {@code -Dprotocol}: {@code dubbo} (the default) or {@code tri}, of the embedded provider too. */
  private static String protocolName() {
    return property("protocol") == null ? "dubbo" : property("protocol");
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    return value == null || value.isBlank() ? null : value.trim();
  }
}
