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

  private ServiceTime() {}

  /** Runs {@code reply} after {@code serviceTime}, or at once when it is zero. */
  public static void after(Duration serviceTime, Runnable reply) {
    if (serviceTime.isZero()) {
      reply.run();
    } else {
      TIMER.schedule(reply, serviceTime.toNanos(), TimeUnit.NANOSECONDS);
    }
  }
}
