package example;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.thrift.ThriftDsl.*;

import benchmark.thrift.ThriftBenchmarkServer;
import benchmark.thrift.gen.BenchmarkMessage;
import benchmark.thrift.gen.Greeter;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Greeter.say of gatling-rpc's Thrift benchmark server (its IDL's Java ships in the artifact, under
 * benchmark.thrift.gen) for a few seconds; {@code -Dtarget=host:port} aims it at a running server.
 */
public class GreeterSimulation extends Simulation {

  private final ThriftBenchmarkServer server = System.getProperty("target") == null ? startServer() : null;
  private final String target = server == null ? System.getProperty("target") : "127.0.0.1:" + server.port();

  ScenarioBuilder greet =
      scenario("greet")
          .exec(
              thrift("say")
                  .service(Greeter.AsyncClient::new)
                  .call(Greeter.AsyncClient::say)
                  .payload(session -> new BenchmarkMessage().setField1("hello").setField2((int) session.userId()))
                  .timeout(Duration.ofSeconds(10))
                  .check(response(BenchmarkMessage::getField1).is("OK")));

  {
    setUp(greet.injectOpen(constantUsersPerSec(50).during(3)))
        .protocols(thrift.target(target).sharedConnections(4))
        .assertions(global().successfulRequests().percent().is(100.0), global().requestsPerSec().gt(10.0));
  }

  private static ThriftBenchmarkServer startServer() {
    try {
      return ThriftBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO);
    } catch (Exception e) {
      throw new IllegalStateException("the Thrift benchmark server did not start: " + e.getMessage(), e);
    }
  }

  @Override
  public void after() {
    if (server != null) {
      try {
        server.close();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
