package benchmark;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
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

  private ServiceTime() {}

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
      TIMER.schedule(reply, delay, TimeUnit.NANOSECONDS);
    }
  }
}
