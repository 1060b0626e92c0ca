package example;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.rpcx.RpcxDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import benchmark.rpcx.RpcxBenchmarkServer;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * Hello.Say of gatling-rpc's rpcx benchmark server (the benchmark's 581-byte protobuf message ships
 * in the artifact) for a few seconds; {@code -Dtarget=host:port} aims it at a running rpcx server, Go or Java.
 */
public class HelloSimulation extends Simulation {

  private final RpcxBenchmarkServer server = System.getProperty("target") == null ? startServer() : null;
  private final String target = server == null ? System.getProperty("target") : "127.0.0.1:" + server.port();

  ScenarioBuilder hello =
      scenario("hello")
          .exec(
              rpcx("say")
                  .call("Hello", "Say")
                  .protobuf(BenchmarkMessage.parser())
                  .payload(BenchmarkMessages.request())
                  .timeout(Duration.ofSeconds(10))
                  .check(response(BenchmarkMessage::getField1).is("OK")));

  {
    setUp(hello.injectOpen(constantUsersPerSec(50).during(3)))
        .protocols(rpcx.target(target).sharedConnections(2))
        .assertions(global().successfulRequests().percent().is(100.0), global().requestsPerSec().gt(10.0));
  }

  private static RpcxBenchmarkServer startServer() {
    try {
      return RpcxBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the rpcx benchmark server started", e);
    }
  }

  @Override
  public void after() {
    if (server != null) {
      server.close();
    }
  }
}
