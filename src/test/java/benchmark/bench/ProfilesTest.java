package benchmark.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** -Dprofile's summary of a flight recording: where its CPU samples fall. */
class ProfilesTest {

  @TempDir Path dir;

  private static volatile long sink;

  @Test
  void samplesGoToTheInnermostFrameThatIsNotTheJdksAndToTheirThreadGroup() throws Exception {
    Path jfr = recordABusyThread();

    String line = Profiles.summary("busy", jfr);

    assertTrue(line.contains("benchmark loop and messages") && line.contains("threads: busy-N"), line);
  }

  @Test
  void hotFramesRankTheSamplesOfAllRecordingsBySelfAndOursInclusive() throws Exception {
    Path jfr = recordABusyThread();

    String md = Profiles.hotFrames("busy", List.of(jfr, dir.resolve("none.jfr")), 5);

    assertTrue(md.contains("`benchmark.bench.ProfilesTest.spin`") && md.contains("Ours and Gatling's, inclusive:"), md);
    assertTrue(md.contains("not read: ") && md.contains("none.jfr (no recording)"), md);
  }

  @Test
  void stepSharesCountSamplesOnGatlingsThreadsWhoseStackShowsAMarker() throws Exception {
    Path jfr = recordABusyThread("gatling-1-1");

    String md = Profiles.steps("busy", List.of(jfr),
        List.of(new Profiles.Step("spinning", "ProfilesTest.spin"), new Profiles.Step("elsewhere", "NoSuchClass.run")));

    assertTrue(md.contains("100.0 % spinning") && md.contains("  0.0 % elsewhere"), md);
  }

  @Test
  void aMissingRecordingIsSaidSo() {
    String line = Profiles.summary("bare grpc", dir.resolve("none.jfr"));

    assertTrue(line.startsWith("- bare grpc: no recording"), line);
  }

  /** A flight recording of CPU samples taken while a thread named busy-1 spins for a second. */
  private Path recordABusyThread() throws Exception {
    return recordABusyThread("busy-1");
  }

  private Path recordABusyThread(String threadName) throws Exception {
    Path jfr = dir.resolve(threadName + ".jfr");
    try (Recording recording = new Recording()) {
      recording.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(2));
      recording.start();
      Thread busy = new Thread(ProfilesTest::spin, threadName);
      busy.start();
      busy.join();
      recording.stop();
      recording.dump(jfr);
    }
    return jfr;
  }

  /** A second of CPU in this class's own frames (Math.sqrt is intrinsic: no JDK frame above). */
  private static void spin() {
    long end = System.nanoTime() + 1_000_000_000L;
    double x = 0;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 10_000; i++) {
        x += Math.sqrt(i + x);
      }
    }
    sink = (long) x;
  }
}
