package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.motan.MotanDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.motan.BenchmarkServiceAsync;
import benchmark.motan.MotanBenchmarkServer;
import protocols.motan.MotanProtocolBuilder;

/**
 * The seed's Motan benchmark: {@code byte[] say(byte[])} carrying the 581-byte protobuf message, over
 * the shared staircase. Each client holds one connection, so {@code -Dconnections} counts connections.
 * {@code -Dregistry=zookeeper://host:port}: the embedded provider registers in that registry and the
 * calls find it there.
 */
public class MotanSimulation extends BenchmarkSimulation {

  private static final byte[] REQUEST = BenchmarkMessages.request().toByteArray();

  public MotanSimulation() {
    super(embedded(s -> MotanBenchmarkServer.start(0, s.serviceTime(), registry())));
    MotanProtocolBuilder protocol = registry() == null ? motan.target(target.address()) : motan.registry(registry());
    benchmark(
        "Motan say",
        exec(
            motan(Staircase.named("Say"))
                .service(BenchmarkServiceAsync.class)
                .call(BenchmarkServiceAsync::sayAsync, byte[].class)
                .payload(REQUEST)
                .check(response(BenchmarkMessages::field1).is(BenchmarkMessages.OK))),
        protocol.connections(settings.connections()).minClientConnections(1));
  }

  /** {@code -Dregistry}: the embedded provider registers there and the calls find it through it. */
  private static String registry() {
    String registry = System.getProperty("registry");
    if (registry == null || registry.isBlank()) {
      return null;
    }
    if (System.getProperty("target") != null && !System.getProperty("target").isBlank()) {
      throw new IllegalArgumentException(
          "-Dregistry=" + registry + " -Dtarget=" + System.getProperty("target")
              + ": expected one of them (-Dregistry registers the embedded provider and finds it there)");
    }
    return registry.trim();
  }
}
