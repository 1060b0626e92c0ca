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
            + " timeout 10000 ms, 2 selector thread(s)",
        protocol.toString());
    assertEquals(ConnectionModel.perUser(), protocol.connectionModel());
  }

  @Test
  void sharedConnectionsAreOnePoolForAllUsers() {
    ThriftProtocol protocol =
        thrift.target("127.0.0.1:9090").connections(ConnectionModel.shared(8)).protocol();
    assertEquals(ConnectionModel.shared(1), protocol.connectionModel(), "one pool shared by all");
    assertEquals(8, protocol.poolSize());
  }
}
