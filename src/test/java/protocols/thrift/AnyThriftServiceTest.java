package protocols.thrift;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.thrift.ThriftDsl.*;

import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;
import protocols.thrift.calculator.Calculator;

/** The request builder calls any generated service, not only the benchmark's Greeter. */
class AnyThriftServiceTest {

  record Pair(long a, long b) {}

  @Test
  void aMethodOfSeveralArgumentsTakesItsArgumentsFromTheSessionsPayload() throws Exception {
    try (CalculatorServer server = CalculatorServer.binary()) {
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      scenario("calculator")
                          .exec(session -> session.set("a", 40L))
                          .exec(
                              thrift("add")
                                  .service(Calculator.AsyncClient::new)
                                  .<Pair, Long>call((client, p, callback) -> client.add(p.a(), p.b(), callback))
                                  .payload(session -> new Pair(session.getLong("a"), 2))
                                  .check(response((Long sum) -> sum).is(42L)))
                          .injectOpen(atOnceUsers(3)))
                  .protocols(thrift.target(server.address()))
                  .assertions(global().failedRequests().count().is(0L)));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      assertEquals(0, run.exitCode, run.toString());
      assertEquals(3, run.ok("add"));
    }
  }

  @Test
  void theCompactProtocolTalksToACompactServer() throws Exception {
    try (CalculatorServer server = CalculatorServer.compact()) {
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      scenario("compact")
                          .repeat(5)
                          .on(
                              exec(
                                  thrift("echo")
                                      .service(Calculator.AsyncClient::new)
                                      .<Long, Long>call((client, a, callback) -> client.echoLater(a, 0, callback))
                                      .payload(7L)
                                      .check(response((Long r) -> r).is(7L))))
                          .injectOpen(atOnceUsers(4)))
                  .protocols(thrift.target(server.address()).compact().sharedConnections(2))
                  .assertions(global().failedRequests().count().is(0L)));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      assertEquals(0, run.exitCode, run.toString());
      assertEquals(20, run.ok("echo"));
    }
  }
}
