package protocols.core;

import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The bridge's own backstop for calls whose client never answers. A wheel timer, because a scheduled
 * executor keeps every cancelled task queued until its delay expires: millions of them at 100k calls/s.
 */
public final class Deadlines {

  /**
   * How much later than the call's timeout the bridge gives up: the client's own timeout goes first. The
   * longest any call can take (a paced pool is sized from it).
   */
  public static Duration backstop(Duration timeout) {
    return timeout.plus(Duration.ofMillis(Math.max(50, timeout.toMillis() / 10)));
  }

  private static final HashedWheelTimer TIMER =
      new HashedWheelTimer(
          new DefaultThreadFactory("rpc-call-deadlines", true),
          10,
          TimeUnit.MILLISECONDS);

  private Deadlines() {}

  /** Runs {@code task} on the timer's thread after {@code delay}, unless the returned timeout is cancelled. */
  static Timeout schedule(Duration delay, Runnable task) {
    return TIMER.newTimeout(t -> task.run(), delay.toNanos(), TimeUnit.NANOSECONDS);
  }

  /**
   * A future completed by {@code call}, or failed with {@link CallTimeoutException} when {@code
   * timeout} passes first; then {@code call} is cancelled so that its client can abandon it. A call
   * already done or {@linkplain SelfTimedFuture timed by its client} is returned as it is.
   */
  static <T> CompletableFuture<T> bound(CompletableFuture<T> call, Duration timeout) {
    if (call instanceof SelfTimedFuture || call.isDone()) {
      return call;
    }
    CompletableFuture<T> bounded = new CompletableFuture<>();
    Timeout timer =
        TIMER.newTimeout(
            t -> {
              if (bounded.completeExceptionally(new CallTimeoutException(timeout))) {
                call.cancel(true);
              }
            },
            backstop(timeout).toNanos(),
            TimeUnit.NANOSECONDS);
    call.whenComplete(
        (value, failure) -> {
          timer.cancel();
          if (failure == null) {
            bounded.complete(value);
          } else {
            bounded.completeExceptionally(failure);
          }
        });
    return bounded;
  }
}
