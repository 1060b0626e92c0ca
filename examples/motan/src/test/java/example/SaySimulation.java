package example;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.motan.MotanDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.motan.BenchmarkServiceAsync;
import benchmark.motan.MotanBenchmarkServer;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * say(byte[]) of gatling-rpc's Motan benchmark provider (its ...Async interface ships in the artifact) for
 * a few seconds; {@code -Dtarget=host:port} aims it at a running provider.
 */
public class SaySimulation extends Simulation {

  private static final byte[] REQUEST = BenchmarkMessages.request().toByteArray();

  private final MotanBenchmarkServer server =
      System.getProperty("target") == null ? MotanBenchmarkServer.start(0, Duration.ZERO) : null;
  private final String target = server == null ? System.getProperty("target") : "127.0.0.1:" + server.port();

  ScenarioBuilder say =
      scenario("say")
          .exec(
              motan("say")
                  .service(BenchmarkServiceAsync.class)
                  .call(BenchmarkServiceAsync::sayAsync, byte[].class)
                  .payload(REQUEST)
                  .timeout(Duration.ofSeconds(10))
                  .check(response(BenchmarkMessages::field1).is("OK")));

  {
    setUp(say.injectOpen(constantUsersPerSec(50).during(3)))
        .protocols(motan.target(target).sharedClients(2))
        .assertions(global().successfulRequests().percent().is(100.0), global().requestsPerSec().gt(10.0));
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
