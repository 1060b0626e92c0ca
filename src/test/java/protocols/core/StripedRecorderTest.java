package protocols.core;

import static org.junit.jupiter.api.Assertions.*;

import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** The µs record's recorder: one stripe per recording thread, every value in the next interval exactly once. */
class StripedRecorderTest {

  private static final long HOUR_MICROS = 3_600_000_000L;

  private static void onThreads(int threads, StripedRecorder recorder, int valuesEach) throws InterruptedException {
    List<Thread> started = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      long base = 1000L * (t + 1);
      Thread thread = new Thread(() -> {
        for (int i = 0; i < valuesEach; i++) {
          recorder.recordValue(base + i % 10);
        }
      });
      thread.start();
      started.add(thread);
    }
    for (Thread thread : started) {
      thread.join();
    }
  }

  @Test
  void valuesRecordedOnSeveralThreadsAreAllInTheNextIntervalAndOnlyThere() throws InterruptedException {
    StripedRecorder recorder = new StripedRecorder(HOUR_MICROS, 3);
    onThreads(4, recorder, 10_000);

    Histogram interval = recorder.intervalInto(new Histogram(HOUR_MICROS, 3));

    assertEquals(40_000, interval.getTotalCount());
    assertEquals(1000, interval.getMinValue());
    assertEquals(4009, interval.getMaxValue(), 4, "three significant digits");
    assertEquals(0, recorder.intervalInto(interval).getTotalCount(), "the next interval starts empty");
  }

  @Test
  void twoThreadsRecordIntoStripesOfTheirOwn() throws InterruptedException {
    requireSeveralStripes();
    StripedRecorder recorder = new StripedRecorder(HOUR_MICROS, 3);
    onThreads(2, recorder, 100);

    assertEquals(2, recorder.stripesInUse());
  }

  private static void requireSeveralStripes() {
    assertTrue(StripedRecorder.STRIPES >= 2, "the default is twice the cores, up to 8: " + StripedRecorder.STRIPES);
  }

  @Test
  void byDefaultThereIsAStripePerEventLoopUpToEight() {
    io.netty.channel.nio.NioEventLoopGroup group = new io.netty.channel.nio.NioEventLoopGroup(); // Netty's default count
    try {
      assertEquals(Math.min(8, group.executorCount()), StripedRecorder.stripes(null));
    } finally {
      group.shutdownGracefully(0, 0, java.util.concurrent.TimeUnit.SECONDS);
    }
  }

  @Test
  void oneStripeIsOneRecorderForAllThreads() {
    assertEquals(1, StripedRecorder.stripes("1"));
  }

  @Test
  void aMalformedStripeCountIsRefusedWithWhatWasExpected() {
    for (String bad : new String[] {"lots", "0", "-2", "5000"}) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StripedRecorder.stripes(bad));
      assertEquals(
          "-Dgatlingrpc.recordStripes=" + bad + ": expected a whole number of stripes from 1 to 1024, for example 8",
          e.getMessage());
    }
  }
}
