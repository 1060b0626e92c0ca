package protocols.core;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The calls in flight on one connection that carries many at once (rpcx, pipelined Thrift), matched to
 * their replies by an id. Every call ends exactly once: with its reply, its own timeout, a failure of
 * the connection ({@link #failAll}), or its caller giving up (cancelling the future forgets the call,
 * and a late reply is dropped).
 *
 * @param <K> the id a reply carries (a sequence number)
 * @param <R> the reply
 */
public final class PendingCalls<K, R> {

  /** A wheel, not the event loop's scheduler: cancelled timeouts of completed calls cost nothing. */
  private static final HashedWheelTimer TIMER =
      new HashedWheelTimer(new DefaultThreadFactory("rpc-client-timeouts", true), 10, TimeUnit.MILLISECONDS);

  private final Map<K, Call> calls = new ConcurrentHashMap<>();

  /**
   * Registers a call; it fails with {@code onTimeout}'s exception unless its reply or another outcome
   * comes within {@code timeout}.
   */
  public CompletableFuture<R> register(K id, Duration timeout, Supplier<? extends Throwable> onTimeout) {
    Call call = new Call(id);
    calls.put(id, call);
    call.timer = TIMER.newTimeout(t -> call.fail(onTimeout.get()), timeout.toNanos(), TimeUnit.NANOSECONDS);
    return call;
  }

  /** Completes the call waiting for {@code id}; false when none waits (it timed out or was cancelled). */
  public boolean complete(K id, R reply) {
    Call call = calls.remove(id);
    if (call == null) {
      return false;
    }
    call.cancelTimer();
    return call.complete(reply);
  }

  /** Fails the call waiting for {@code id} (an error reply); false when none waits. */
  public boolean fail(K id, Throwable reason) {
    Call call = calls.get(id);
    return call != null && call.fail(reason);
  }

  /** Fails every call in flight: the connection is gone. */
  public void failAll(Throwable reason) {
    for (Call call : calls.values()) {
      call.fail(reason);
    }
  }

  /** Calls waiting for their reply. */
  public int size() {
    return calls.size();
  }

  /** Self-timed: its own timeout fails it, so the bridge needs no backstop for it. */
  private final class Call extends SelfTimedFuture<R> {
    private final K id;
    private volatile Timeout timer;

    Call(K id) {
      this.id = id;
    }

    boolean fail(Throwable reason) {
      if (!calls.remove(id, this)) {
        return false;
      }
      cancelTimer();
      return completeExceptionally(reason);
    }

    private void cancelTimer() {
      Timeout t = timer;
      if (t != null) {
        t.cancel();
      }
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      if (calls.remove(id, this)) {
        cancelTimer();
      }
      return super.cancel(mayInterruptIfRunning);
    }
  }
}
