package benchmark.bare;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import protocols.core.ConnectionModel;
import protocols.core.LatencyRecord;

/**
 * A closed loop straight on a client library: {@code concurrency} chains, each sending the next call
 * as soon as the previous one completes, as the Gatling simulations' virtual users do. The chains share
 * one client of N connections, or each has a client of one connection of its own, as {@code
 * -Dconnections=N|per-user} means for a simulation. Clients are opened before the clock starts; calls
 * completed during the warm-up are not counted.
 */
public final class BareLoop {

  /**
   * What the loop measured; latencies in microseconds; this process's CPU microseconds per measured call;
   * the measured window in epoch milliseconds.
   */
  public record Result(long ok, long ko, double throughput, Histogram latencies, double cpuPerCall, long fromMillis, long toMillis) {}

  private final BareClients clients;
  private final ConnectionModel connections;
  private final Recorder latencies = new Recorder(TimeUnit.HOURS.toMicros(1), 3);
  private final LongAdder ok = new LongAdder();
  private final LongAdder ko = new LongAdder();
  private final AtomicLong firstSent = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong lastReceived = new AtomicLong(Long.MIN_VALUE);
  private volatile long measureFrom;
  private volatile long stopAt;
  private CountDownLatch chains;

  public BareLoop(BareClients clients, ConnectionModel connections) {
    this.clients = clients;
    this.connections = connections;
  }

  public Result run(int concurrency, Duration warmup, Duration duration) throws Exception {
    List<BareClient> opened = new ArrayList<>();
    try {
      List<BareClient> chainClients = new ArrayList<>(concurrency);
      for (int i = 0; i < concurrency; i++) {
        if (connections.perUserClients() || opened.isEmpty()) {
          opened.add(clients.open(connections.perUserClients() ? 1 : connections.sharedClients(), connections.perUserClients()));
        }
        chainClients.add(opened.get(opened.size() - 1));
      }
      return run(chainClients, warmup, duration);
    } finally {
      for (BareClient client : opened) {
        client.close();
      }
    }
  }

  private Result run(List<BareClient> chainClients, Duration warmup, Duration duration) throws InterruptedException {
    long now = System.nanoTime();
    long fromMillis = System.currentTimeMillis() + warmup.toMillis();
    measureFrom = now + warmup.toNanos();
    stopAt = measureFrom + duration.toNanos();
    chains = new CountDownLatch(chainClients.size());
    chainClients.forEach(this::next);
    TimeUnit.NANOSECONDS.sleep(measureFrom - System.nanoTime());
    long cpuFrom = LatencyRecord.ProcessCpu.nanos();
    if (!chains.await(warmup.plus(duration).plusSeconds(60).toSeconds(), TimeUnit.SECONDS)) {
      throw new IllegalStateException("calls still outstanding a minute after the end");
    }
    long cpu = LatencyRecord.ProcessCpu.nanos() - cpuFrom;
    long toMillis = System.currentTimeMillis();
    Histogram histogram = latencies.getIntervalHistogram();
    double seconds = (lastReceived.get() - firstSent.get()) / 1e9;
    long calls = histogram.getTotalCount();
    return new Result(ok.sum(), ko.sum(), seconds > 0 ? calls / seconds : 0, histogram, calls > 0 ? cpu / 1000.0 / calls : 0, fromMillis, toMillis);
  }

  /**
   * The chain's next calls. One that completes at once (a broken connection) is counted here rather
   * than in a callback, so that a run of them does not grow the stack.
   */
  private void next(BareClient client) {
    while (true) {
      long sent = System.nanoTime();
      if (sent >= stopAt) {
        chains.countDown();
        return;
      }
      CompletableFuture<Boolean> call = client.say();
      if (!call.isDone()) {
        call.whenComplete((replyOk, failure) -> {
          count(sent, replyOk, failure);
          next(client);
        });
        return;
      }
      count(sent, call.exceptionally(failure -> false).join(), null);
    }
  }

  private void count(long sent, Boolean replyOk, Throwable failure) {
    long received = System.nanoTime();
    if (sent >= measureFrom) {
      latencies.recordValue(Math.max(0, (received - sent) / 1000));
      (failure == null && Boolean.TRUE.equals(replyOk) ? ok : ko).increment();
      firstSent.accumulateAndGet(sent, Math::min);
      lastReceived.accumulateAndGet(received, Math::max);
    }
  }
}
