package benchmark.bench;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import java.util.Locale;

/**
 * A fixed piece of work timed when a bench starts and when it ends, printed with its results: this VM's
 * speed has moved fourfold from one day to the next and within one run, so a figure is only comparable
 * with another beside the machine's speed at the time. The work is what every client of the benches does
 * per call: one thread encodes the seed's request and decodes it, for a second after a second's warm-up.
 */
final class MachineReference {

  private static volatile double atStart = Double.NaN;
  @SuppressWarnings("unused")
  private static volatile long sink;

  private MachineReference() {}

  /** Times the work now, before any run of the bench (called as the bench makes its results folder). */
  static void atStart() {
    atStart = roundTripsPerSecond();
  }

  /** Times the work again and says both, as a markdown paragraph. */
  static String line() {
    double atEnd = roundTripsPerSecond();
    String start = Double.isNaN(atStart) ? "not timed" : String.format(Locale.ROOT, "%,.0f a second", atStart);
    return String.format(Locale.ROOT,
        "Machine reference (`benchmark.bench.MachineReference`: one thread encodes and decodes the seed's %d-byte message, 1 s):"
            + " %s when the bench started, %,.0f a second when it ended.",
        BenchmarkMessages.request().getSerializedSize(), start, atEnd);
  }

  static double roundTripsPerSecond() {
    BenchmarkMessage request = BenchmarkMessages.request();
    long total = 0;
    for (long warmedUp = System.nanoTime() + 1_000_000_000L; System.nanoTime() < warmedUp; ) {
      total += roundTrip(request);
    }
    long trips = 0;
    long start = System.nanoTime();
    long now;
    do {
      for (int i = 0; i < 100; i++) {
        total += roundTrip(request);
      }
      trips += 100;
      now = System.nanoTime();
    } while (now - start < 1_000_000_000L);
    sink = total;
    return trips * 1e9 / (now - start);
  }

  private static int roundTrip(BenchmarkMessage request) {
    try {
      return BenchmarkMessage.parseFrom(request.toByteArray()).getField2();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("the benchmark message did not decode: " + e.getMessage(), e);
    }
  }
}
