package protocols.core;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * How often the clients of one protocol may try to connect to a target that does not answer: after a
 * failed attempt, the next one waits {@code firstDelay}, then twice as long at every further failure
 * up to {@code maxDelay}, each delay drawn between half and all of it (jitter: injectors started
 * together do not knock in step). The delay is the target's, not a client's: while it runs, only one
 * attempt is let through per step, so a thousand users with a connection each make one attempt per
 * step between them, and their calls meanwhile fail at once ({@link Reconnecting}). The first answer on
 * a new connection ends the backoff.
 *
 * <p>A failure is a connection that failed to connect, or that the target closed before answering any
 * call (a server that accepts and drops): a connection that worked and broke later is replaced at once.
 */
public final class ReconnectBackoff {

  /** The defaults: 100 ms, doubling up to 5 s. */
  public static final Settings DEFAULT = new Settings(Duration.ofMillis(100), Duration.ofSeconds(5));

  /** The first delay after a failure and the longest one. */
  public record Settings(Duration firstDelay, Duration maxDelay) {
    public Settings {
      if (firstDelay == null || firstDelay.isNegative() || firstDelay.isZero()) {
        throw new IllegalArgumentException("reconnect backoff: expected a positive first delay, got " + firstDelay);
      }
      if (maxDelay == null || maxDelay.compareTo(firstDelay) < 0) {
        throw new IllegalArgumentException(
            "reconnect backoff: expected a longest delay of at least the first (" + firstDelay + "), got " + maxDelay);
      }
    }

    /** The settings a DSL option was given; a bad one names the option ({@code "grpc.reconnectBackoff"}). */
    public static Settings of(String option, Duration firstDelay, Duration maxDelay) {
      try {
        return new Settings(firstDelay, maxDelay);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(option + ": " + e.getMessage().substring("reconnect backoff: ".length()), e);
      }
    }
  }

  /** A call refused while the backoff runs: the KO says when the next attempt comes and why. */
  public static final class Reconnecting extends RuntimeException {
    public static final String STATUS = "RECONNECTING";

    Reconnecting(long inMillis, Throwable cause) {
      super("reconnecting in " + rounded(inMillis) + " ms after: " + text(cause), cause, false, false);
    }

    /** Up to the next 10 ms (100 ms from a second on): the report groups KOs by message. */
    private static long rounded(long millis) {
      long step = millis < 1000 ? 10 : 100;
      return (millis + step - 1) / step * step;
    }

    private static String text(Throwable cause) {
      Throwable c = FailureDescriber.unwrap(cause);
      return c.getMessage() == null ? c.getClass().getSimpleName() : c.getMessage();
    }
  }

  private final Settings settings;
  /** Failed steps since the last answer; 0: attempts are free. */
  private volatile int failures;
  private long nextAttemptNanos;
  private Throwable lastCause;
  private long attempts;

  public ReconnectBackoff(Settings settings) {
    this.settings = settings;
  }

  /**
   * Before opening a connection: returns the step the attempt belongs to (for {@link #failed}), or
   * throws {@link Reconnecting} when the backoff holds attempts back.
   */
  public int beforeAttempt() {
    if (failures == 0) {
      synchronized (this) {
        attempts++;
      }
      return 0;
    }
    synchronized (this) {
      long now = System.nanoTime();
      if (failures > 0 && now - nextAttemptNanos < 0) {
        throw new Reconnecting(Math.max(1, TimeUnit.NANOSECONDS.toMillis(nextAttemptNanos - now)), lastCause);
      }
      attempts++;
      if (failures > 0) {
        nextAttemptNanos = now + delayNanos(failures); // this step's one attempt: the others wait
      }
      return failures;
    }
  }

  /** The attempt of {@code step} failed: the first failure of a step starts the next, longer delay. */
  public synchronized void failed(int step, Throwable cause) {
    lastCause = cause;
    if (step != failures) {
      return; // another attempt of the same step failed first
    }
    failures++;
    long next = System.nanoTime() + delayNanos(failures);
    if (failures == 1 || next - nextAttemptNanos > 0) {
      nextAttemptNanos = next;
    }
  }

  /** A connection answered: attempts are free again. */
  public void answered() {
    if (failures != 0) {
      synchronized (this) {
        failures = 0;
      }
    }
  }

  /** Whether attempts are held back (a cheap read, for the callers' fast path). */
  public boolean holding() {
    return failures != 0;
  }

  /** Connection attempts let through so far. */
  public synchronized long attempts() {
    return attempts;
  }

  private long delayNanos(int failedSteps) {
    long max = settings.maxDelay().toNanos();
    long delay = settings.firstDelay().toNanos();
    for (int i = 1; i < failedSteps && delay < max; i++) {
      delay = Math.min(max, delay * 2);
    }
    return delay / 2 + ThreadLocalRandom.current().nextLong(delay / 2 + 1);
  }
}
