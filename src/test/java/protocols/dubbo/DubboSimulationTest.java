package protocols.dubbo;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.testkit.GatlingRun;
import simulations.DubboSimulation;

/** The benchmark simulation, short, through the real Gatling engine against its embedded provider. */
class DubboSimulationTest {

  @Test
  void aShortDubboSimulationAgainstTheEmbeddedProviderHasNoFailures() {
    GatlingRun run = GatlingRun.run(DubboSimulation.class, Map.of("levels", "5,20", "ramp", "1", "hold", "3"));

    assertEquals(0, run.exitCode, run.toString());
    assertTrue(run.ok("Say") > 0, run.toString());
    assertEquals(0, run.ko("Say"), run.errors("Say"));
  }
}
