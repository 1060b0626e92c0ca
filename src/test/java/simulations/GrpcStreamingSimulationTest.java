package simulations;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.testkit.GatlingRun;

/** GrpcStreamingSimulation as `mvn gatling:test -Dsimulation=GrpcStreamingSimulation` runs it, on small levels. */
class GrpcStreamingSimulationTest {

  @Test
  void aShortStaircaseOfAllThreeStreamKindsHasNoKo() {
    GatlingRun run =
        GatlingRun.run(
            GrpcStreamingSimulation.class, Map.of("levels", "5,20", "ramp", "1", "hold", "3", "messages", "5"));

    assertEquals(0, run.exitCode, "the no-failure assertion holds: " + run);
    for (String name : new String[] {"ServerStream", "ClientStream", "BidiStream"}) {
      assertTrue(run.ok(name) >= 20, "at least one stream per user: " + name + ": " + run);
      assertEquals(0, run.ko(name), name + ": " + run);
      JsonNode streams = run.streams(name);
      assertEquals(streams.get("opened").asLong(), streams.get("completed").asLong(), name + ": " + streams);
    }
    assertEquals(run.streams("ServerStream").get("opened").asLong() * 5, run.ok("ServerStream"), "5 replies per server stream");
    assertEquals(run.streams("BidiStream").get("messagesSent").asLong(), run.ok("BidiStream"), "one echo per message sent");
  }

  @Test
  void aBadMessagesCountIsRefusedNamingTheProperty() {
    System.setProperty("messages", "lots");
    try {
      IllegalArgumentException error = assertThrows(IllegalArgumentException.class, GrpcStreamingSimulation::messages);
      assertEquals("messages=lots: expected a number of messages per stream, 1 to 100000", error.getMessage());
    } finally {
      System.clearProperty("messages");
    }
  }
}
