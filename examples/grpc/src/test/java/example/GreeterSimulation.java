package example;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import com.example.greeter.GreeterGrpc;
import com.example.greeter.HelloReply;
import com.example.greeter.HelloRequest;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/** Greets the users of users.csv for a few seconds; {@code -Dtarget=host:port} aims it at a running server. */
public class GreeterSimulation extends Simulation {

  private final GreeterServer server = System.getProperty("target") == null ? GreeterServer.start() : null;
  private final String target = server == null ? System.getProperty("target") : server.target();

  ScenarioBuilder greet =
      scenario("greet")
          .feed(csv("users.csv").circular())
          .exec(
              grpc("say hello")
                  .unary(GreeterGrpc.getSayHelloMethod())
                  .payload(session -> HelloRequest.newBuilder().setName(session.getString("name")).build())
                  .deadline(Duration.ofSeconds(10))
                  .check(response(HelloReply::getMessage).is(session -> "Hello " + session.getString("name"))));

  {
    setUp(greet.injectOpen(constantUsersPerSec(50).during(3)))
        .protocols(grpc.target(target).sharedChannels(2))
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
