package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.thrift.ThriftDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.LoadSettings;
import benchmark.thrift.ThriftBenchmarkMessages;
import benchmark.thrift.ThriftBenchmarkServer;
import benchmark.thrift.gen.BenchmarkMessage;
import benchmark.thrift.gen.Greeter;
import io.gatling.javaapi.core.Simulation;
import protocols.thrift.ThriftProtocolBuilder;

/** The seed's Thrift benchmark: Greeter.say with the benchmark message, over the shared staircase. */
public class ThriftSimulation extends Simulation {

  private final LoadSettings settings = LoadSettings.fromSystemProperties();
  private final Staircase staircase = new Staircase(settings);
  private final Target target =
      Target.of(settings, s -> ThriftBenchmarkServer.start("127.0.0.1", 0, s.serviceTime()));

  private final ThriftProtocolBuilder protocol =
      thrift.target(target.address()).connections(settings.connections());

  {
    System.out.println("ThriftSimulation: " + settings + " -> " + target);
    setUp(
            staircase.population(
                "Thrift Greeter.say",
                exec(
                    thrift("Say")
                        .service(Greeter.AsyncClient::new)
                        .call(Greeter.AsyncClient::say)
                        .payload(ThriftBenchmarkMessages.request())
                        .check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK)))))
        .protocols(protocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    staircase.start();
  }

  @Override
  public void after() {
    try {
      target.close();
    } catch (Exception e) {
      System.err.println("stopping the embedded server failed: " + e);
    }
  }
}
