package benchmark.bare;

import static org.junit.jupiter.api.Assertions.*;

import benchmark.thrift.ThriftBenchmarkServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;

/** The bare loop's connection models, on the real Thrift client against the real Thrift benchmark server. */
class BareLoopTest {

  private ThriftBenchmarkServer server;
  private HostAndPort target;

  @BeforeEach
  void startServer() throws Exception {
    server = ThriftBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO);
    target = new HostAndPort("127.0.0.1", server.port());
  }

  @AfterEach
  void stopServer() throws Exception {
    server.close();
  }

  @Test
  void perUserGivesEachChainAClientOfOneConnection() throws Exception {
    List<Integer> opened = new ArrayList<>();
    try (ThriftBareClient.Selectors thrift = new ThriftBareClient.Selectors(target)) {
      BareClients counting = (connections, oneChainEach) -> {
        opened.add(connections);
        return thrift.open(connections, oneChainEach);
      };

      BareLoop.Result result = new BareLoop(counting, ConnectionModel.perUser()).run(5, Duration.ZERO, Duration.ofMillis(500));

      assertEquals(List.of(1, 1, 1, 1, 1), opened);
      assertTrue(result.ok() > 0, "no call answered");
      assertEquals(0, result.ko());
    }
  }

  @Test
  void thriftChainsSharingFewerConnectionsWaitForAFreeOne() throws Exception {
    try (ThriftBareClient.Selectors thrift = new ThriftBareClient.Selectors(target)) {
      BareLoop.Result result = new BareLoop(thrift, ConnectionModel.shared(2)).run(10, Duration.ZERO, Duration.ofMillis(500));

      assertTrue(result.ok() > 0, "no call answered");
      assertEquals(0, result.ko()); // a Thrift connection given a second call at once would fail it
    }
  }

  @Test
  void theBareLoopOnTheProtocolsNettyClientPipelinesChainsOnSharedConnections() throws Exception {
    try (ThriftNettyBareClient.Loops thrift = new ThriftNettyBareClient.Loops(target)) {
      BareLoop.Result result = new BareLoop(thrift, ConnectionModel.shared(2)).run(10, Duration.ZERO, Duration.ofMillis(500));

      assertTrue(result.ok() > 0, "no call answered");
      assertEquals(0, result.ko());
    }
  }

  @Test
  void anUnknownFrameworkIsNamedWithTheFiveThatHaveBareLoops() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BareLoopMain.open("http", target));

    assertEquals("no bare loop for framework 'http'; expected grpc, rpcx, thrift, thrift-netty, dubbo or motan", e.getMessage());
  }

  @Test
  void connectionsAreACountOrPerUser() {
    assertEquals(ConnectionModel.perUser(), BareLoopMain.connections("per-user"));
    assertEquals(ConnectionModel.shared(4), BareLoopMain.connections("4"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BareLoopMain.connections("four"));
    assertEquals("<connections> four: expected per-user or a positive number of shared connections", e.getMessage());
  }
}
