package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.motan.MotanDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.motan.BenchmarkServiceAsync;
import benchmark.motan.MotanBenchmarkServer;

/**
 * The seed's Motan benchmark: {@code byte[] say(byte[])} carrying the 581-byte protobuf message, over
 * the shared staircase. Each client holds one connection, so {@code -Dconnections} counts connections.
 */
public class MotanSimulation extends BenchmarkSimulation {

  private static final byte[] REQUEST = BenchmarkMessages.request().toByteArray();

  public MotanSimulation() {
    super(embedded(s -> MotanBenchmarkServer.start(0, s.serviceTime())));
    benchmark(
        "Motan say",
        exec(
            motan(Staircase.named("Say"))
                .service(BenchmarkServiceAsync.class)
                .call(BenchmarkServiceAsync::sayAsync, byte[].class)
                .payload(REQUEST)
                .check(response(BenchmarkMessages::field1).is(BenchmarkMessages.OK))),
        motan.target(target.address()).connections(settings.connections()).minClientConnections(1));
  }
}
