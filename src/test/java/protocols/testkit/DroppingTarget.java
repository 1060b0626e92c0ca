package protocols.testkit;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;

import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import java.util.Map;
import java.util.function.IntFunction;
import protocols.core.ProbeSimulation;

/**
 * The first half of a reconnect backoff test, for any framework whose clients are connections of its
 * own: a thousand users with a connection each call a target that accepts every connection and closes it
 * at once (a {@link Doorman}) for 4 s, making at most their first 1000 attempts plus 50 a second.
 */
public final class DroppingTarget {

  private DroppingTarget() {}

  /**
   * Runs {@code call} (named "say") over {@code protocolOnPort}, asserts the attempts and that the KOs
   * say "reconnecting in … after: " followed by {@code causeOnPort} of the doorman's port.
   */
  public static void assertAThousandUsersKnockAtMostFiftyTimesASecond(
      IntFunction<ProtocolBuilder> protocolOnPort, ActionBuilder call, IntFunction<String> causeOnPort) throws Exception {
    try (Doorman doorman = new Doorman()) {
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      scenario("dropped")
                          .during(Duration.ofSeconds(4))
                          .on(exec(call).pause(Duration.ofMillis(50)))
                          .injectOpen(atOnceUsers(1000)))
                  .protocols(protocolOnPort.apply(doorman.port())));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      // the first second holds the users' first attempts (1000, accepted here one after the other),
      // the other 3 at most 50 a second; without the backoff, every call of every user reconnects
      long attempts = doorman.accepted.size();
      assertTrue(attempts <= 1000 + 3 * 50, attempts + " connections; " + run);
      assertEquals(0, run.ok("say"), run.toString());
      assertTrue(run.errors("say").contains("reconnecting in "), run.errors("say"));
      assertTrue(run.errors("say").contains("after: " + causeOnPort.apply(doorman.port())), run.errors("say"));
    }
  }
}
