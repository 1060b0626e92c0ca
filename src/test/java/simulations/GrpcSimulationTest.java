package simulations;

import static org.junit.jupiter.api.Assertions.*;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.core.LatencyRecord;
import protocols.testkit.GatlingRun;

/** GrpcSimulation as `mvn gatling:test -Dsimulation=GrpcSimulation` runs it, on small levels. */
class GrpcSimulationTest {

  @Test
  void aShortRunAgainstTheEmbeddedServerSucceedsAndWritesItsReports() {
    GatlingRun run =
        GatlingRun.run(GrpcSimulation.class, Map.of("levels", "5,20", "ramp", "1", "hold", "3"), true);

    assertEquals(0, run.exitCode, "the no-failure assertion holds: " + run);
    assertTrue(run.ok("Say") > 100, run.toString());
    assertEquals(0, run.ko("Say"));
    assertTrue(Files.exists(run.runFolder.resolve("index.html")), "Gatling's HTML report");
    assertTrue(Files.exists(run.runFolder.resolve(LatencyRecord.LOG_FILE)), "the microsecond histogram log");
  }

  @Test
  void aTargetWhereNothingListensFailsEveryCallOnScheduleAndFailsTheAssertion() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    GatlingRun run =
        GatlingRun.run(
            GrpcSimulation.class,
            Map.of("levels", "2", "ramp", "0", "hold", "2", "target", "127.0.0.1:" + port));

    assertNotEquals(0, run.exitCode, "the no-failure assertion fails the run");
    assertEquals(0, run.ok("Say"));
    assertTrue(run.ko("Say") > 0);
    assertTrue(run.errors("Say").contains("Connection refused"), run.errors("Say"));
    assertTrue(run.wallTime.toSeconds() < 30, "ended on schedule: " + run.wallTime);
  }

  @Test
  void warmUpCallsAreRecordedApartFromTheMeasuredOnes() {
    GatlingRun run =
        GatlingRun.run(GrpcSimulation.class, Map.of("levels", "5", "ramp", "0", "hold", "2", "warmup", "3"));

    assertEquals(0, run.exitCode, run.toString());
    assertTrue(run.ok("warm-up Say") > 0, run.toString());
    assertTrue(run.ok("Say") > 0, run.toString());
  }
}
