package benchmark.bench;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ProcessMeterTest {

  @Test
  void aBusyChildsCpuTimeShowsInItsWindowAndNothingOutsideItsLife() throws Exception {
    long start = System.currentTimeMillis();
    // a shell counting to 500,000: about a second of user time on an idle machine, almost no system time
    Process busy = new ProcessBuilder("sh", "-c", "i=0; while [ $i -lt 500000 ]; do i=$((i+1)); done").start();
    ProcessMeter.Usage usage;
    try (ProcessMeter meter = ProcessMeter.watch(busy)) {
      busy.waitFor();
      long end = System.currentTimeMillis();
      usage = meter.between(start, end);
      assertNull(meter.between(end + 10_000, end + 20_000), "no sample after the process ended");
    }
    assertNotNull(usage, "samples in the child's life");
    assertTrue(usage.userMicros() > 200_000 && usage.userMicros() > 10 * usage.systemMicros(), "the counting child's CPU time: " + usage);
  }
}
