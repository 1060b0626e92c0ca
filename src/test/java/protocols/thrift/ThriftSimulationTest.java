package protocols.thrift;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.testkit.GatlingRun;
import simulations.ThriftSimulation;

/** The benchmark simulation itself, short, against its embedded server. */
class ThriftSimulationTest {

  @Test
  void aShortThriftSimulationSucceedsAgainstTheEmbeddedServer() {
    GatlingRun run =
        GatlingRun.run(ThriftSimulation.class, Map.of("levels", "5,20", "ramp", "1", "hold", "3"));

    assertEquals(0, run.exitCode, "Gatling's no-failure assertion: " + run);
    assertTrue(run.ok("Say") > 0, run.toString());
    assertEquals(0, run.ko("Say"), run.toString());
    assertTrue(run.wallTime.toSeconds() < 30, "ended on schedule (8 s of load): " + run.wallTime);
  }

  @Test
  void theSimulationRunsBufferedCompactAndMultiplexedAgainstItsServerSpeakingTheSame() {
    GatlingRun run =
        GatlingRun.run(
            ThriftSimulation.class,
            Map.of("levels", "5", "ramp", "0", "hold", "2", "transport", "buffered", "protocol", "compact", "service", "Greeter"));

    assertEquals(0, run.exitCode, run.toString());
    assertTrue(run.ok("Say") > 0, run.toString());
    assertEquals(0, run.ko("Say"), run.toString());
  }

  @Test
  void theThriftClientRunsOnGatlingsThreadsAndLeavesNoneOfItsOwn() throws InterruptedException {
    GatlingRun run =
        GatlingRun.run(ThriftSimulation.class, Map.of("levels", "3", "ramp", "0", "hold", "1", "connections", "2"));
    assertEquals(0, run.exitCode, run.toString());

    long deadline = System.currentTimeMillis() + 3000;
    while (thriftClientThreads() > 0 && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
    assertEquals(0, thriftClientThreads(), "libthrift selector threads left running after the simulation");
  }

  private static long thriftClientThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("TAsyncClientManager#SelectorThread"))
        .count();
  }
}
