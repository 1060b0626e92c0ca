package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;

import benchmark.LoadSettings;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import protocols.testkit.GatlingRun;

/** The shared staircase as Gatling runs it, with a call that only pauses and notes who made it. */
class StaircaseTest {

  /** The users that made at least one call in the last run. */
  static final Set<Long> CALLERS = ConcurrentHashMap.newKeySet();

  public static class PausingSimulation extends Simulation {
    private final Staircase staircase = new Staircase(LoadSettings.fromSystemProperties());

    public PausingSimulation() {
      setUp(staircase.population("pausing", exec(session -> {
        CALLERS.add(session.userId());
        return session;
      }).pause(Duration.ofMillis(10))));
    }
  }

  @Test
  void everyUserCallsForAWholeHoldSoALevelIsItsUsersAndNoMore() {
    CALLERS.clear();

    GatlingRun run = GatlingRun.run(PausingSimulation.class, Map.of("levels", "5", "ramp", "0", "hold", "3"));

    assertEquals(0, run.exitCode);
    assertEquals(5, CALLERS.size(), "users that made calls: " + CALLERS);
  }

  @Test
  void theFirstLevelsUsersLiveThroughItsWarmUpSoNoneIsReplacedInsideTheMeasuredHold() {
    CALLERS.clear();

    GatlingRun run = GatlingRun.run(PausingSimulation.class, Map.of("levels", "5", "ramp", "0", "warmup", "2", "hold", "2"));

    assertEquals(0, run.exitCode);
    // with a lifetime of one hold, the 5 users would end at 2 s and 5 more would call from 2 s to 4 s
    assertEquals(5, CALLERS.size(), "users that made calls: " + CALLERS);
  }
}
