package protocols.dubbo;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.dubbo.DubboDsl.*;

import benchmark.dubbo.DubboBenchmarkServer;
import benchmark.dubbo.DubboBenchmarkService;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;
import simulations.DubboSimulation;

/** Providers found through a real ZooKeeper, started in this JVM. */
class DubboRegistryTest {

  private static TestingServer zookeeper;
  private static String registry;
  private static DubboBenchmarkServer provider;

  @BeforeAll
  static void startRegistryAndProvider() throws Exception {
    zookeeper = new TestingServer(true);
    registry = "zookeeper://" + zookeeper.getConnectString();
    provider = DubboBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO, "dubbo", registry);
  }

  @AfterAll
  static void stopAll() throws Exception {
    provider.close();
    zookeeper.close();
  }

  @Test
  void theProviderIsRegisteredInZooKeeper() throws Exception {
    try (CuratorFramework client =
        CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), new RetryOneTime(100))) {
      client.start();
      List<String> providers =
          client.getChildren().forPath("/dubbo/" + DubboBenchmarkService.class.getName() + "/providers");
      assertEquals(1, providers.size(), providers.toString());
      // Dubbo registers the host's own address, never a loopback one
      assertTrue(java.net.URLDecoder.decode(providers.get(0), "UTF-8").matches("dubbo://[^/]+:" + provider.port() + "/" + DubboBenchmarkService.class.getName() + "\\?.*"), providers.toString());
    }
  }

  @Test
  void dubboSimulationCallsTheProviderItFindsInTheRegistry() {
    GatlingRun run =
        GatlingRun.run(DubboSimulation.class, Map.of("registry", registry, "levels", "5", "ramp", "0", "hold", "2"));

    assertEquals(0, run.exitCode, run.toString());
    assertTrue(run.ok("Say") > 0, run.toString());
    assertEquals(0, run.ko("Say"), run.errors("Say"));
  }

  @Test
  void aRegistryWithNoProviderForTheInterfaceIsAKo() {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("unregistered")
                        .exec(dubbo("missing").generic("com.example.MissingService").method("hello", "java.lang.String").arguments("x"))
                        .injectOpen(atOnceUsers(2)))
                .protocols(dubbo.registry(registry).timeout(Duration.ofSeconds(30))));

    GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

    assertEquals(2, run.ko("missing"));
    assertTrue(run.errors("missing").contains("No provider available for the service com.example.MissingService in the registry " + zookeeper.getConnectString()), run.errors("missing"));
    assertTrue(run.request("missing").get("max").asLong() < 2_000_000, "a KO at once, not at the 30 s timeout: " + run);
  }

  @Test
  void anUnreachableRegistryStopsTheSimulationWithOneClearError() {
    String nowhere = "zookeeper://127.0.0.1:" + DubboSetup.freePort("127.0.0.1");
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("registry down")
                        .exec(dubbo("down").service(DubboBenchmarkService.class).method(DubboBenchmarkService::sayAsync).payload(new byte[0]))
                        .injectOpen(atOnceUsers(1)))
                .protocols(dubbo.registry(nowhere).registryTimeout(Duration.ofSeconds(1))));

    DubboStartupException failure =
        assertThrows(DubboStartupException.class, () -> GatlingRun.run(ProbeSimulation.class, Map.of()));

    assertEquals("dubbo: the registry " + nowhere + " did not answer within 1000 ms (zookeeper not connected)", failure.getMessage());
    assertEquals(0, failure.getStackTrace().length, "one line, no stack trace");
  }
}
