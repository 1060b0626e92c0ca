package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.grpc.GrpcDsl.*;

import benchmark.bench.Go;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;

/**
 * A scenario against grpc-go's features/reflection example server with no Java code of its services
 * at all: the types come from the server's reflection, the requests are JSON, the checks jsonPath.
 */
class GrpcReflectionGoTest {

  private static RouteGuideServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = new RouteGuideServer(Go.reflectionServer());
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
  }

  @Test
  void callsTheGoServersServicesFoundByReflection() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("go reflection")
                        .feed(listFeeder(java.util.List.of(Map.of("name", "gopher"))).circular())
                        .exec(
                            grpc("SayHello")
                                .method("helloworld.Greeter/SayHello")
                                .json("{\"name\":\"#{name}\"}")
                                .check(jsonPath("$.message").isEL("Hello #{name}")),
                            grpc("UnaryEcho")
                                .method("grpc.examples.echo.Echo/UnaryEcho")
                                .json("{\"message\":\"ping #{name}\"}")
                                .check(jsonPath("$.message").is("ping gopher")))
                        .injectOpen(atOnceUsers(3)))
                .protocols(grpc.target(server.target).reflection()));

    GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

    assertEquals(3, run.ok("SayHello"), run.errors("SayHello"));
    assertEquals(3, run.ok("UnaryEcho"), run.errors("UnaryEcho"));
  }
}
