package protocols.thrift.interop;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.thrift.ThriftDsl.*;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;
import protocols.thrift.ThriftProtocolBuilder;
import protocols.thrift.ThriftRequestBuilder;
import protocols.thrift.calculator.Calculator;

/**
 * The thrift protocol against servers of another language: Python's own Thrift library, its
 * TThreadedServer, with Python code the Thrift compiler generates from calculator.thrift at test time.
 * Every transport and protocol, plain and multiplexed; then each mismatch, named from the first bytes.
 */
class PythonThriftServerTest {

  record Pair(long a, long b) {}

  static ThriftRequestBuilder<Calculator.AsyncClient, Pair, Long> add() {
    return thrift("add")
        .service(Calculator.AsyncClient::new)
        .<Pair, Long>call((client, p, callback) -> client.add(p.a(), p.b(), callback))
        .payload(session -> new Pair(session.userId(), 40));
  }

  static ThriftRequestBuilder<Calculator.AsyncClient, Pair, Long> divideByZero() {
    return thrift("divide by zero")
        .service(Calculator.AsyncClient::new)
        .<Pair, Long>call((client, p, callback) -> client.divide(p.a(), p.b(), callback))
        .payload(new Pair(7, 0))
        .check(status().is("DivisionByZero"));
  }

  /** Three users, five adds each on shared connections, then the declared exception: all OK. */
  private static void callsSucceed(String transport, String protocol, String multiplexed, ThriftProtocolBuilder client)
      throws Exception {
    try (PythonThrift.Server server = new PythonThrift.Server(transport, protocol, multiplexed)) {
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      scenario(transport + " " + protocol)
                          .repeat(5)
                          .on(exec(add().check(response((Long sum) -> sum >= 40).is(true))))
                          .exec(divideByZero())
                          .injectOpen(atOnceUsers(3)))
                  .protocols(client.target(server.address.toString()).sharedConnections(2)));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      assertEquals(15, run.ok("add"), run + "\n" + server.output());
      assertEquals(3, run.ok("divide by zero"), "the declared exception, decoded: " + run);
    }
  }

  @Test
  void aBufferedBinaryServerAnswers() throws Exception {
    callsSucceed("buffered", "binary", null, thrift.buffered());
  }

  @Test
  void aBufferedCompactServerAnswers() throws Exception {
    callsSucceed("buffered", "compact", null, thrift.buffered().compact());
  }

  @Test
  void aFramedBinaryServerAnswers() throws Exception {
    callsSucceed("framed", "binary", null, thrift.framed());
  }

  @Test
  void aFramedCompactMultiplexedServiceAnswers() throws Exception {
    callsSucceed("framed", "compact", "Calculator", thrift.framed().compact().multiplexed("Calculator"));
  }

  @Test
  void aBufferedBinaryMultiplexedServiceAnswers() throws Exception {
    callsSucceed("buffered", "binary", "Calculator", thrift.buffered().multiplexed("Calculator"));
  }

  /** One user's one call against a server of other settings: the KO's message. */
  private static String errorAgainst(String transport, String protocol, String multiplexed, ThriftProtocolBuilder client)
      throws Exception {
    try (PythonThrift.Server server = new PythonThrift.Server(transport, protocol, multiplexed)) {
      ProbeSimulation.define(
          sim ->
              sim.setUp(scenario("mismatch").exec(add()).injectOpen(atOnceUsers(1)))
                  .protocols(client.target(server.address.toString()).timeout(Duration.ofSeconds(3))));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      assertEquals(1, run.ko("add"), run.toString());
      return run.errors("add");
    }
  }

  @Test
  void aFramedClientAgainstABufferedServerIsAKoThatSuspectsTheTransport() throws Exception {
    String error = errorAgainst("buffered", "binary", null, thrift.framed());
    assertTrue(error.contains("the server may not speak framed binary"), error);
  }

  @Test
  void aBufferedClientAgainstAFramedServerIsAKoThatSuspectsTheTransport() throws Exception {
    String error = errorAgainst("framed", "binary", null, thrift.buffered());
    assertTrue(error.contains("the server may not speak buffered binary"), error);
  }

  @Test
  void aCompactClientAgainstABinaryServerIsAKoThatSuspectsTheProtocol() throws Exception {
    String error = errorAgainst("buffered", "binary", null, thrift.buffered().compact());
    assertTrue(error.contains("the server may not speak buffered compact"), error);
  }

  @Test
  void aPlainCallToAMultiplexedServerIsAKoThatSuspectsTheServiceName() throws Exception {
    String error = errorAgainst("buffered", "binary", "Calculator", thrift.buffered());
    assertTrue(error.contains("multiplexed"), error);
  }
}
