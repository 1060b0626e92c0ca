package protocols.core;

/**
 * The time a call was meant to be sent, set by whatever paces the calls (a rate schedule) as a session
 * attribute and read by every RPC action: with it, the µs record also measures each call from its
 * intended send time, which a stalled server or a late injector cannot hide (coordinated omission).
 */
public final class IntendedSend {

  /** A {@code long}: the intended send time on {@link System#nanoTime()}'s clock. */
  public static final String ATTRIBUTE = "gatlingrpc.intendedSendNanos";

  /** No intended time: the call is measured from its actual send only. */
  static final long NONE = Long.MIN_VALUE;

  /** A send later than this after its intended time is counted as late. */
  static final long LATE_NANOS = 1_000_000;

  private IntendedSend() {}

  static long of(io.gatling.javaapi.core.Session session) {
    Object value = session.asScala().attributes().get(ATTRIBUTE).getOrElse(() -> null);
    return value instanceof Long nanos ? nanos : NONE;
  }
}
