package protocols.motan;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.testkit.GatlingRun;
import simulations.MotanSimulation;

/** The benchmark simulation itself, shortened, against its embedded provider. */
class MotanSimulationTest {

  @Test
  void theBenchmarkSimulationSucceedsAgainstItsEmbeddedProvider() {
    GatlingRun run =
        GatlingRun.run(MotanSimulation.class, Map.of("levels", "5,20", "ramp", "1", "hold", "3"));

    assertEquals(0, run.exitCode, "no failed request, per Gatling's own assertion: " + run);
    assertTrue(run.ok("Say") > 0, run.toString());
    assertEquals(0, run.ko("Say"), run.toString());
  }
}
