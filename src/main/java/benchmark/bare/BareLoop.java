package benchmark.bare;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Recorder;
import org.HdrHistogram.Histogram;

/**
 * A closed loop straight on a client library: {@code concurrency} chains, each sending the next call
 * as soon as the previous one completes, as the Gatling simulations' virtual users do. Calls completed
 * during the warm-up are not counted.
 */
public final class BareLoop {

  /** What the loop measured; latencies in microseconds. */
  public record Result(long ok, long ko, double throughput, Histogram latencies) {}

  private final BareClient client;
  private final Recorder latencies = new Recorder(TimeUnit.HOURS.toMicros(1), 3);
  private final LongAdder ok = new LongAdder();
  private final LongAdder ko = new LongAdder();
  private final AtomicLong firstSent = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong lastReceived = new AtomicLong(Long.MIN_VALUE);
  private volatile long measureFrom;
  private volatile long stopAt;
  private CountDownLatch chains;

  public BareLoop(BareClient client) {
    this.client = client;
  }

  public Result run(int concurrency, Duration warmup, Duration duration) throws InterruptedException {
    long now = System.nanoTime();
    measureFrom = now + warmup.toNanos();
    stopAt = measureFrom + duration.toNanos();
    chains = new CountDownLatch(concurrency);
    for (int i = 0; i < concurrency; i++) {
      next();
    }
    if (!chains.await(warmup.plus(duration).plusSeconds(60).toSeconds(), TimeUnit.SECONDS)) {
      throw new IllegalStateException("calls still outstanding a minute after the end");
    }
    Histogram histogram = latencies.getIntervalHistogram();
    double seconds = (lastReceived.get() - firstSent.get()) / 1e9;
    return new Result(ok.sum(), ko.sum(), seconds > 0 ? histogram.getTotalCount() / seconds : 0, histogram);
  }

  private void next() {
    long sent = System.nanoTime();
    if (sent >= stopAt) {
      chains.countDown();
      return;
    }
    client
        .say()
        .whenComplete(
            (replyOk, failure) -> {
              long received = System.nanoTime();
              if (sent >= measureFrom) {
                latencies.recordValue(Math.max(0, (received - sent) / 1000));
                (failure == null && Boolean.TRUE.equals(replyOk) ? ok : ko).increment();
                firstSent.accumulateAndGet(sent, Math::min);
                lastReceived.accumulateAndGet(received, Math::max);
              }
              next();
            });
  }
}
