package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.thrift.ThriftDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.thrift.ThriftBenchmarkMessages;
import benchmark.thrift.ThriftBenchmarkServer;
import benchmark.thrift.ThriftBenchmarkServer.Options;
import benchmark.thrift.gen.BenchmarkMessage;
import benchmark.thrift.gen.Greeter;

/**
 * The seed's Thrift benchmark: Greeter.say with the benchmark message, over the shared staircase.
 * {@code -Dtransport=framed|buffered}, {@code -Dprotocol=binary|compact} and {@code -Dservice=NAME}
 * (a multiplexed service; unset: none) set the client and the embedded server alike.
 */
public class ThriftSimulation extends BenchmarkSimulation {

  public ThriftSimulation() {
    super(embedded(s -> ThriftBenchmarkServer.start("127.0.0.1", 0, s.serviceTime(), Options.fromSystemProperties())));
    Options wire = Options.fromSystemProperties();
    benchmark(
        "Thrift Greeter.say",
        exec(
            thrift(Staircase.named("Say"))
                .service(Greeter.AsyncClient::new)
                .call(Greeter.AsyncClient::say)
                .payload(ThriftBenchmarkMessages.request())
                .check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK))),
        thrift
            .target(target.address())
            .transport(wire.transport())
            .encoding(wire.encoding())
            .multiplexed(wire.service())
            .connections(settings.connections()));
  }
}
