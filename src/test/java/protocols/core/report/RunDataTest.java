package protocols.core.report;

import static org.junit.jupiter.api.Assertions.*;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.core.LatencyRecord;

/** Cutting a run's record into windows (a staircase's levels, the time after a warm-up). */
class RunDataTest {

  static final long T0 = 1_700_000_000_000L;

  @TempDir Path dir;

  @Test
  void eachLevelIsCutFromTheSecondsInsideItsHoldWindow() throws Exception {
    // ramp to level A (second 0), A's hold (seconds 1-2), ramp to B (second 3), B's hold (seconds 4-5)
    Histogram[] seconds = {interval(0, 100, 10), interval(1, 1_000, 20), interval(2, 2_000, 20), interval(3, 300, 10), interval(4, 5_000, 30), interval(5, 7_000, 30)};
    writeRun(seconds, "[[" + (T0 + 2_000) + ", 3], [" + (T0 + 4_000) + ", 5]]");
    Histogram levelA = new Histogram(3);
    levelA.recordValueWithCount(1_000, 20);
    levelA.recordValueWithCount(2_000, 20);
    Histogram levelB = new Histogram(3);
    levelB.recordValueWithCount(5_000, 30);
    levelB.recordValueWithCount(7_000, 30);

    RunData data = RunData.read(dir);
    Calls a = data.window("Say", T0 + 1_000, T0 + 3_000);
    Calls b = data.window("Say", T0 + 4_000, T0 + 6_000);

    assertEquals(levelA, a.histogram());
    assertEquals(levelB, b.histogram());
    assertEquals(Stats.of(levelA, 3, 2.0), a.stats(), "level A: 40 calls in 2 s, the 3 KO of its second second");
    assertEquals(Stats.of(levelB, 0, 2.0), b.stats(), "level B: the KO of the ramp before it are not its own");
    assertEquals(20.0, a.stats().throughput());
    assertEquals(List.of(T0 + 1_000, T0 + 3_000), List.of(a.histogram().getStartTimeStamp(), a.histogram().getEndTimeStamp()),
        "the window's histogram is stamped with its first second's start and its last second's end");
  }

  @Test
  void aWarmUpWindowLeavesOutTheFirstSeconds() throws Exception {
    writeRun(new Histogram[] {interval(0, 90_000, 5), interval(1, 1_000, 50), interval(2, 1_000, 50)}, "[]");

    Calls after = RunData.read(dir).window("Say", T0 + 1_000, Long.MAX_VALUE);

    assertEquals(100, after.stats().count());
    assertEquals(1_000, after.histogram().getMaxValue());
  }

  static Histogram interval(int second, long micros, int count) {
    Histogram h = new Histogram(3);
    h.recordValueWithCount(micros, count);
    h.setStartTimeStamp(T0 + second * 1_000L);
    h.setEndTimeStamp(T0 + (second + 1) * 1_000L);
    h.setTag("Say");
    return h;
  }

  /** A run folder as LatencyRecord writes it, for one request name "Say". */
  private void writeRun(Histogram[] seconds, String koPerSecond) throws Exception {
    try (PrintStream log = new PrintStream(Files.newOutputStream(dir.resolve(LatencyRecord.LOG_FILE)))) {
      HistogramLogWriter writer = new HistogramLogWriter(log);
      writer.outputLogFormatVersion();
      writer.outputStartTime(T0);
      writer.setBaseTime(T0);
      writer.outputLegend();
      for (Histogram h : seconds) {
        writer.outputIntervalHistogram(h);
      }
    }
    String stats = "{\"count\": 1, \"ok\": 1, \"ko\": 0, \"throughput\": 1.0, \"min\": 1, \"mean\": 1.0, \"p50\": 1, \"p90\": 1, \"p99\": 1, \"p999\": 1, \"p9999\": 1, \"max\": 1";
    Files.writeString(dir.resolve(LatencyRecord.SUMMARY_FILE),
        "{\"unit\": \"microseconds\", \"requests\": {\"Say\": " + stats + ", \"koPerSecond\": " + koPerSecond + ", \"errors\": {}}}, \"all\": " + stats + "}}");
  }
}
