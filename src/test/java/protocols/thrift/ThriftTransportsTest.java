package protocols.thrift;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.thrift.ThriftDsl.*;

import java.time.Duration;
import java.util.Map;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;
import protocols.thrift.calculator.Calculator;

/** Buffered and framed libthrift servers, and what a client of the other transport or protocol sees. */
class ThriftTransportsTest {

  record Pair(long a, long b) {}

  private static ThriftRequestBuilder<Calculator.AsyncClient, Pair, Long> add() {
    return thrift("add")
        .service(Calculator.AsyncClient::new)
        .<Pair, Long>call((client, p, callback) -> client.add(p.a(), p.b(), callback))
        .payload(new Pair(40, 2));
  }

  private static GatlingRun oneUserCallsTwice(CalculatorServer server, ThriftProtocolBuilder client) {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("add")
                        .repeat(2)
                        .on(exec(add().check(response((Long sum) -> sum).is(42L))))
                        .injectOpen(atOnceUsers(1)))
                .protocols(client.target(server.address()).timeout(Duration.ofSeconds(1))));
    return GatlingRun.run(ProbeSimulation.class, Map.of());
  }

  @Test
  void aBufferedClientTalksToLibthriftsBlockingServerOnAPlainSocket() throws Exception {
    try (CalculatorServer server = CalculatorServer.buffered(new TBinaryProtocol.Factory())) {
      GatlingRun run = oneUserCallsTwice(server, thrift.buffered());
      assertEquals(2, run.ok("add"), run.toString());
    }
  }

  @Test
  void aFramedClientAgainstABufferedLibthriftServerIsAKoThatSuspectsTheTransport() throws Exception {
    // the server reads the frame length as a method name's length and waits for bytes that never come,
    // until the timeout (or the next call's bytes) ends the connection: nothing is ever received
    try (CalculatorServer server = CalculatorServer.buffered(new TBinaryProtocol.Factory())) {
      GatlingRun run = oneUserCallsTwice(server, thrift.framed());
      assertEquals(2, run.ko("add"), run.toString());
      assertTrue(run.errors("add").contains("the server may not speak framed binary"), run.errors("add"));
    }
  }

  @Test
  void aBinaryClientAgainstACompactServerIsAKoNamingTheProtocol() throws Exception {
    try (CalculatorServer server = CalculatorServer.compact()) {
      GatlingRun run = oneUserCallsTwice(server, thrift.framed().binary());
      assertEquals(2, run.ko("add"), run.toString());
      assertTrue(run.errors("add").contains("the server may not speak framed binary"), run.errors("add"));
    }
  }

  @Test
  void aBufferedClientAgainstAFramedLibthriftServerIsAKoNamingTheTransport() throws Exception {
    try (CalculatorServer server = CalculatorServer.binary()) {
      GatlingRun run = oneUserCallsTwice(server, thrift.buffered());
      assertEquals(2, run.ko("add"), run.toString());
      assertTrue(run.errors("add").contains("the server may not speak buffered binary"), run.errors("add"));
    }
  }
}
