package protocols.core;

import io.netty.util.concurrent.FastThreadLocal;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * An HdrHistogram {@link Recorder} in stripes, one per recording thread up to {@link #STRIPES}. Every
 * event loop records each of its calls: into one recorder, the counters all of them write moved their
 * cache lines between the cores on every call (4 % of the injector's CPU at 1000 users). A thread keeps
 * the stripe it was first given; threads beyond the stripes share them, which is still exact, only
 * contended. A stripe is created when its first value comes, so unused ones cost no memory.
 */
final class StripedRecorder {

  /**
   * {@code -Dgatlingrpc.recordStripes=N}: how many; 1 is one recorder for all threads, as before the
   * stripes (bench/ measures both with one build). By default as many as Gatling's event loops (Netty's
   * default, twice the cores), up to 8: each stripe holds two histograms of 190 KB per request name.
   */
  static final String STRIPES_PROPERTY = "gatlingrpc.recordStripes";

  private static final int DEFAULT_MAX_STRIPES = 8;

  static final int STRIPES = stripes(System.getProperty(STRIPES_PROPERTY));

  private static final AtomicInteger NEXT_STRIPE = new AtomicInteger();

  /** Given in turn, so that the first {@link #STRIPES} threads to record each have one of their own. */
  private static final FastThreadLocal<Integer> STRIPE =
      new FastThreadLocal<>() {
        @Override
        protected Integer initialValue() {
          return Math.floorMod(NEXT_STRIPE.getAndIncrement(), STRIPES);
        }
      };

  private final long highestTrackableValue;
  private final int significantDigits;
  private final AtomicReferenceArray<Recorder> stripes = new AtomicReferenceArray<>(STRIPES);
  /** One stripe's interval, summed into the caller's (the reading thread's only). */
  private Histogram stripeInterval;

  StripedRecorder(long highestTrackableValue, int significantDigits) {
    this.highestTrackableValue = highestTrackableValue;
    this.significantDigits = significantDigits;
  }

  static int stripes(String property) {
    if (property == null || property.isBlank()) {
      return Math.min(DEFAULT_MAX_STRIPES, 2 * Runtime.getRuntime().availableProcessors());
    }
    try {
      int n = Integer.parseInt(property.trim());
      if (n >= 1 && n <= 1024) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "-D" + STRIPES_PROPERTY + "=" + property + ": expected a whole number of stripes from 1 to 1024, for example 8");
  }

  /** Reads the switch now, so that a malformed one fails the simulation's start, not its calls. */
  static void checkSettings() {}

  /** Any thread, wait-free. */
  void recordValue(long value) {
    int i = STRIPE.get();
    Recorder recorder = stripes.get(i);
    if (recorder == null) {
      recorder = createStripe(i);
    }
    recorder.recordValue(value);
  }

  private Recorder createStripe(int i) {
    Recorder fresh = new Recorder(highestTrackableValue, significantDigits);
    return stripes.compareAndSet(i, null, fresh) ? fresh : stripes.get(i);
  }

  /** Stripes created so far: one per thread that recorded, up to {@link #STRIPES}. */
  int stripesInUse() {
    int n = 0;
    for (int i = 0; i < stripes.length(); i++) {
      if (stripes.get(i) != null) {
        n++;
      }
    }
    return n;
  }

  /** Whether any value was ever recorded. */
  boolean used() {
    return stripesInUse() > 0;
  }

  /**
   * Every value recorded since the last call, in {@code into} (reset first), and the stripes start a new
   * interval. One reading thread only.
   */
  Histogram intervalInto(Histogram into) {
    into.reset();
    for (int i = 0; i < stripes.length(); i++) {
      Recorder recorder = stripes.get(i);
      if (recorder != null) {
        if (stripeInterval == null) {
          stripeInterval = new Histogram(highestTrackableValue, significantDigits);
        }
        recorder.getIntervalHistogramInto(stripeInterval);
        into.add(stripeInterval);
      }
    }
    return into;
  }
}
