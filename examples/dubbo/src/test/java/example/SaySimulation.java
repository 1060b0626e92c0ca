package example;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.dubbo.DubboDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.dubbo.DubboBenchmarkServer;
import benchmark.dubbo.DubboBenchmarkService;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * say(byte[]) of gatling-rpc's Dubbo benchmark provider (its interface ships in the artifact) for a few
 * seconds; {@code -Dtarget=host:port} aims it at a running provider.
 */
public class SaySimulation extends Simulation {

  private static final byte[] REQUEST = BenchmarkMessages.request().toByteArray();

  private final DubboBenchmarkServer server =
      System.getProperty("target") == null ? DubboBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO) : null;
  private final String target = server == null ? System.getProperty("target") : "127.0.0.1:" + server.port();

  ScenarioBuilder say =
      scenario("say")
          .exec(
              dubbo("say")
                  .service(DubboBenchmarkService.class)
                  .method(DubboBenchmarkService::sayAsync)
                  .payload(REQUEST)
                  .check(response(BenchmarkMessages::field1).is("OK")));

  {
    setUp(say.injectOpen(constantUsersPerSec(50).during(3)))
        .protocols(dubbo.target(target).timeout(Duration.ofSeconds(10)))
        .assertions(global().successfulRequests().percent().is(100.0), global().requestsPerSec().gt(10.0));
  }

  @Override
  public void after() {
    if (server != null) {
      server.close();
    }
  }
}
