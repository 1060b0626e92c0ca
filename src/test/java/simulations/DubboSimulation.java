package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.dubbo.DubboDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.LoadSettings;
import benchmark.dubbo.DubboBenchmarkServer;
import benchmark.dubbo.DubboBenchmarkService;
import benchmark.pb.BenchmarkMessage;
import io.gatling.javaapi.core.Simulation;
import protocols.core.ConnectionModel;
import protocols.dubbo.DubboProtocolBuilder;

/**
 * The seed's Dubbo benchmark: {@code say(byte[])} carrying the 581-byte message, over the shared
 * staircase. {@code -Dtarget=host:port} calls a running provider, {@code -Dregistry=zookeeper://host:port}
 * finds providers in a registry; without either the simulation starts its own provider.
 *
 * <p>Connections: one shared connection unless {@code -Dconnections} says otherwise (Dubbo's own default;
 * a Dubbo client costs tens of ms of CPU to open, too much for one per user at thousands of users).
 */
public class DubboSimulation extends Simulation {

  private static final byte[] REQUEST = BenchmarkMessages.request().toByteArray();

  private final LoadSettings settings = LoadSettings.fromSystemProperties();
  private final String registry = property("registry");
  private final Staircase staircase = new Staircase(settings);
  private final Target target =
      registry != null
          ? null
          : Target.of(settings, s -> DubboBenchmarkServer.start("127.0.0.1", 0, s.serviceTime()));
  private final ConnectionModel connections =
      property("connections") == null ? ConnectionModel.shared(1) : settings.connections();

  private final DubboProtocolBuilder protocol =
      (registry != null ? dubbo.registry(registry) : dubbo.target(target.address()))
          .connections(connections);

  {
    System.out.println(
        "DubboSimulation: levels " + settings.levels() + ", ramp " + settings.ramp() + ", hold " + settings.hold()
            + ", " + connections + " -> " + (registry != null ? "providers from " + registry : target));
    setUp(
            staircase.population(
                "Dubbo say",
                exec(
                    dubbo("Say")
                        .service(DubboBenchmarkService.class)
                        .method(DubboBenchmarkService::sayAsync)
                        .payload(REQUEST)
                        .check(response((byte[] reply) -> decode(reply).getField1()).is(BenchmarkMessages.OK)))))
        .protocols(protocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  private static BenchmarkMessage decode(byte[] reply) {
    try {
      return BenchmarkMessage.parseFrom(reply);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("the reply is not a BenchmarkMessage: " + e.getMessage(), e);
    }
  }

  private static String property(String name) {
    String value = System.getProperty(name);
    return value == null || value.isBlank() ? null : value.trim();
  }

  @Override
  public void before() {
    staircase.start();
  }

  @Override
  public void after() {
    if (target == null) {
      return;
    }
    try {
      target.close();
    } catch (Exception e) {
      System.err.println("stopping the embedded provider failed: " + e);
    }
  }
}
