package benchmark;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The optional per-call service time of the benchmark servers. Replies are delayed on a timer, not by
 * sleeping, so a server thread is never held for it.
 */
public final class ServiceTime {

  private static final ScheduledExecutorService TIMER =
      Executors.newSingleThreadScheduledExecutor(
          new DefaultThreadFactory("benchmark-service-time", true));

  /** One per process, as a real pause would be: every benchmark server of this JVM stalls together. */
  private static volatile Stall stall = Stall.NONE;
  private static volatile long stallStartNanos;

  /** How late replies went past their due time (µs): the server's own view of its service time's error. */
  private static final Recorder LATENESS = new Recorder(3);

  private ServiceTime() {}

  /** For a server that sleeps: a reply due {@code dueNanos} (System.nanoTime) went now. */
  public static void replied(long dueNanos) {
    LATENESS.recordValue(Math.max(0, System.nanoTime() - dueNanos) / 1000);
  }

  /**
   * One line on how late the delayed replies went since the last call (the timer's or the sleep's
   * granularity, a busy machine's scheduler, replies queued behind each other on the timer thread), or
   * null when none was delayed.
   */
  public static String latenessSummary() {
    Histogram h = LATENESS.getIntervalHistogram();
    if (h.getTotalCount() == 0) {
      return null;
    }
    return String.format(Locale.ROOT, "service time: %d delayed replies went late by p50 %d µs, p99 %d µs, max %d µs past their due time",
        h.getTotalCount(), h.getValueAtPercentile(50), h.getValueAtPercentile(99), h.getMaxValue());
  }

  /** Stalls every reply from now on as {@code stall} says (its first pause starts now); NONE ends it. */
  public static void stall(Stall stall) {
    stallStartNanos = System.nanoTime();
    ServiceTime.stall = stall;
  }

  public static Stall stall() {
    return stall;
  }

  /** Whether a reply may go at once: no service time and no stall. */
  public static boolean immediate(Duration serviceTime) {
    return serviceTime.isZero() && stall.none();
  }

  /** For a server that sleeps its service time (Motan's): how long, the stall included. */
  public static long blockingNanos(long serviceTimeNanos) {
    return serviceTimeNanos + stall.waitNanos(System.nanoTime() - stallStartNanos);
  }

  /** Runs {@code reply} after {@code serviceTime} (and the stall, while one lasts), or at once. */
  public static void after(Duration serviceTime, Runnable reply) {
    long delay = serviceTime.toNanos() + stall.waitNanos(System.nanoTime() - stallStartNanos);
    if (delay == 0) {
      reply.run();
    } else {
      long due = System.nanoTime() + delay;
      TIMER.schedule(() -> {
        replied(due);
        reply.run();
      }, delay, TimeUnit.NANOSECONDS);
    }
  }
}
