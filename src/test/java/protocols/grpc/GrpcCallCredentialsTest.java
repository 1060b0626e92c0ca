package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import calculator.pb.CalculatorGrpc;
import calculator.pb.CounterGrpc;
import calculator.pb.Operands;
import calculator.pb.Result;
import io.gatling.javaapi.core.ChainBuilder;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;

/** Call credentials computed from the session per call, against a server that checks the header. */
class GrpcCallCredentialsTest {

  private static GatlingRun run(GrpcProtocolBuilder protocol, ChainBuilder chain) {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("credentials")
                        .exec(session -> session.set("token", "token-of-user"))
                        .exec(chain)
                        .injectOpen(atOnceUsers(1)))
                .protocols(protocol));
    return GatlingRun.run(ProbeSimulation.class, Map.of());
  }

  private static ChainBuilder add() {
    return exec(
        grpc("add")
            .unary(CalculatorGrpc.getAddMethod())
            .payload(Operands.newBuilder().setA(2).setB(3).build())
            .check(response(Result::getValue).is(5L)));
  }

  @Test
  void aBearerTokenFromTheSessionGoesWithEveryCall() throws Exception {
    try (CalculatorServer server = CalculatorServer.requiringAuthorization("Bearer token-of-user")) {
      GatlingRun run = run(grpc.target(server.target()).bearerToken("#{token}"), repeat(3).on(add()));

      assertEquals(3, run.ok("add"), run.errors("add"));
    }
  }

  @Test
  void callCredentialsComputedFromTheSessionGoWithStreamsToo() throws Exception {
    try (CalculatorServer server = CalculatorServer.requiringAuthorization("Bearer token-of-user")) {
      var count = grpc("count").serverStream(CounterGrpc.getCountMethod());
      GatlingRun run =
          run(
              grpc.target(server.target())
                  .callCredentials(session -> Map.of("authorization", "Bearer " + session.getString("token"))),
              exec(count.send(Operands.newBuilder().setA(3).build()), count.awaitStreamEnd()));

      assertEquals(3, run.ok("count"), run.errors("count"));
      assertEquals(0, run.ko("count"), run.errors("count"));
    }
  }

  @Test
  void withoutCredentialsTheServersRefusalIsAReadableKo() throws Exception {
    try (CalculatorServer server = CalculatorServer.requiringAuthorization("Bearer token-of-user")) {
      GatlingRun run = run(grpc.target(server.target()), add());

      assertEquals(1, run.ko("add"));
      assertTrue(run.errors("add").contains("UNAUTHENTICATED: expected authorization 'Bearer token-of-user', got 'null'"), run.errors("add"));
    }
  }

  @Test
  void aTokenWhoseElCannotBeResolvedIsAKoNamingIt() throws Exception {
    try (CalculatorServer server = CalculatorServer.requiringAuthorization("Bearer token-of-user")) {
      GatlingRun run = run(grpc.target(server.target()).bearerToken("#{noSuchAttribute}"), add());

      assertEquals(1, run.ko("add"));
      assertTrue(run.errors("add").contains("grpc.bearerToken could not be resolved"), run.errors("add"));
      assertTrue(run.errors("add").contains("noSuchAttribute"), run.errors("add"));
      assertEquals(0, server.calls.get(), "nothing is sent without its credentials");
    }
  }
}
