package protocols.thrift;

import static org.junit.jupiter.api.Assertions.*;
import static protocols.thrift.ThriftDsl.*;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import protocols.core.ConnectionModel;

/** Bad settings fail when the simulation is defined, naming the input and the expected form. */
class ThriftProtocolBuilderTest {

  private static String error(Runnable bad) {
    return assertThrows(RuntimeException.class, bad::run).getMessage();
  }

  @Test
  void aTargetWithoutAPortNamesTheExpectedForm() {
    assertEquals(
        "thrift.target=localhost: expected host:port, for example localhost:50051",
        error(() -> thrift.target("localhost")));
  }

  @Test
  void aProtocolWithoutTargetSaysHowToAddOne() {
    assertEquals("thrift: no target: add .target(\"host:port\")", error(() -> thrift.protocol()));
  }

  @Test
  void aPoolOfNoConnectionIsRefused() {
    assertEquals(
        "thrift.sharedConnections: expected a pool size of at least 1, got 0",
        error(() -> thrift.sharedConnections(0)));
  }

  @Test
  void timeoutsMustBePositive() {
    assertEquals(
        "thrift.timeout: expected a positive duration of at least 1 ms, got PT0S",
        error(() -> thrift.timeout(Duration.ZERO)));
    assertEquals(
        "thrift.connectTimeout: expected a positive duration of at least 1 ms, got PT-1S",
        error(() -> thrift.connectTimeout(Duration.ofSeconds(-1))));
  }

  @Test
  void aRequestWithoutServiceOrMethodSaysWhatIsExpected() {
    assertTrue(error(() -> thrift("say").service(null)).contains("expected a generated async client such as Greeter.AsyncClient::new"));
  }

  @Test
  void theDefaultsAreAConnectionPerUserFramedBinaryAndATenSecondTimeout() {
    ThriftProtocol protocol = thrift.target("127.0.0.1:9090").protocol();
    assertEquals(
        "thrift 127.0.0.1:9090, framed binary, one connection per virtual user, connect timeout 5000 ms,"
            + " timeout 10000 ms",
        protocol.toString());
    assertEquals(ConnectionModel.perUser(), protocol.connectionModel());
  }

  @Test
  void sharedConnectionsAreTheBridgesSharedClients() {
    ThriftProtocol protocol =
        thrift.target("127.0.0.1:9090").connections(ConnectionModel.shared(8)).protocol();
    assertEquals(ConnectionModel.shared(8), protocol.connectionModel());
  }

  @Test
  void transportProtocolAndServiceNameShowInTheSettings() {
    assertEquals(
        "thrift 127.0.0.1:9090, buffered compact, service Greeter, 2 shared connection(s), connect timeout"
            + " 5000 ms, timeout 10000 ms",
        thrift.target("127.0.0.1:9090").buffered().compact().multiplexed("Greeter").sharedConnections(2).protocol().toString());
  }

  @Test
  void aServiceNameWithTheSeparatorIsRefused() {
    assertEquals(
        "thrift.multiplexed: expected the name a TMultiplexedProcessor registers the service under (no ':'),"
            + " got \"a:b\"",
        error(() -> thrift.multiplexed("a:b")));
  }

  @Test
  void transportAndProtocolNamesAreParsedWithTheExpectedValuesInTheError() {
    assertEquals(ThriftTransport.BUFFERED, ThriftTransport.parse("Buffered", "transport"));
    assertEquals(ThriftEncoding.COMPACT, ThriftEncoding.parse("compact", "protocol"));
    assertEquals("transport=http: expected framed or buffered", error(() -> ThriftTransport.parse("http", "transport")));
    assertEquals("protocol=json: expected binary or compact", error(() -> ThriftEncoding.parse("json", "protocol")));
  }
}
