package protocols.core;

import io.netty.util.concurrent.DefaultThreadFactory;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import io.gatling.core.CoreComponents;
import io.gatling.core.actor.ActorSystem;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import protocols.core.report.RunEnd;
import scala.runtime.BoxedUnit;

/**
 * Every call's latency in microseconds, per request name, next to Gatling's millisecond report: Gatling
 * cannot show sub-millisecond RPC latencies.
 *
 * <p>Latency is measured exactly where Gatling measures it: from just before the request is handed to
 * the client to the moment its response (or failure) arrives, before checks run. A call that failed
 * before it was sent (payload error) is counted as KO but not timed.
 *
 * <p>At the end of the run it writes, into the Gatling run folder, {@value #LOG_FILE} (an HdrHistogram
 * interval log, one tagged interval per request name per second), for paced calls {@value
 * #INTENDED_LOG_FILE} (the same from the intended send time) and {@value #SUMMARY_FILE} (count, OK, KO,
 * throughput and min/mean/p50/p90/p99/p99.9/max per request name and for all).
 *
 * <p>It also samples this process's CPU time every second and shares each second's CPU among the
 * request names by their calls in it: {@code cpuPerCall}, the injector's CPU microseconds per call, a
 * cost that does not depend on what else runs on the machine (unlike throughput).
 */
public final class LatencyRecord {

  public static final String LOG_FILE = "rpc-latency.hlog";
  /**
   * The same form for the response times from the intended send (rate mode only): a log of its own, as
   * every HdrHistogram reader takes an interval's tag for its request name.
   */
  public static final String INTENDED_LOG_FILE = "rpc-intended.hlog";
  public static final String SUMMARY_FILE = "rpc-latency.json";

  /** Latencies above an hour are clamped; three significant digits as Gatling's own stats. */
  private static final long MAX_MICROS = TimeUnit.HOURS.toMicros(1);

  /** Past this many kinds of message (numbers folded), the rest are lumped. */
  private static final int MAX_DISTINCT_ERRORS = 100;

  private static final String OTHER_MESSAGES = "(other messages)";

  /**
   * KO messages alike but for their numbers: a deadline naming its own delays, an address its port, a
   * backoff its wait. Counted as one, so that a thousand of them cannot crowd out the one other message
   * that says what went wrong; reported by the first such message, marked when the others differed.
   */
  static final class ErrorKind {
    final String first;
    final LongAdder count = new LongAdder();
    private volatile boolean varied;

    ErrorKind(String first) {
      this.first = first;
    }

    /** The message with each run of digits as one {@code #}. */
    static String shape(String message) {
      StringBuilder shape = null;
      for (int i = 0; i < message.length(); i++) {
        char c = message.charAt(i);
        if (!digit(c)) {
          if (shape != null) {
            shape.append(c);
          }
          continue;
        }
        if (shape == null) {
          shape = new StringBuilder(message.length()).append(message, 0, i);
        }
        if (i == 0 || !digit(message.charAt(i - 1))) {
          shape.append('#');
        }
      }
      return shape == null ? message : shape.toString();
    }

    private static boolean digit(char c) {
      return c >= '0' && c <= '9';
    }

    void count(String message) {
      count.increment();
      if (!varied && !first.equals(message)) {
        varied = true;
      }
    }

    /** How the record names this kind. */
    String label() {
      return varied ? first + " (and others alike but for their numbers)" : first;
    }
  }

  private static final Logger LOG = LoggerFactory.getLogger(LatencyRecord.class);
  private static final Map<ActorSystem, LatencyRecord> RUNS = new WeakHashMap<>();
  private static final ScheduledExecutorService TICKER =
      Executors.newSingleThreadScheduledExecutor(
          new DefaultThreadFactory("rpc-latency-record", true));

  private final Map<String, Series> series = new ConcurrentHashMap<>();
  private final long startEpochMillis = System.currentTimeMillis();
  /**
   * The interval log, written as each second is taken: compressed, a second costs a line of a few
   * hundred bytes, where keeping its histogram (an hour's range at three digits) would hold 190 KB a
   * second per request name until the run ends.
   */
  private final ByteArrayOutputStream hlog = new ByteArrayOutputStream();
  private final PrintStream hlogStream = new PrintStream(hlog, false, StandardCharsets.UTF_8);
  private final HistogramLogWriter hlogWriter = new HistogramLogWriter(hlogStream);
  private final ByteArrayOutputStream intendedLog = new ByteArrayOutputStream();
  private final PrintStream intendedStream = new PrintStream(intendedLog, false, StandardCharsets.UTF_8);
  private final HistogramLogWriter intendedWriter = new HistogramLogWriter(intendedStream);
  private static final LatencyRecord OFF = new LatencyRecord(false);

  private final boolean enabled;
  private final ScheduledFuture<?> ticker;
  private volatile Path runFolder;
  private volatile long lastLookNanos = System.nanoTime() - 2_000_000_000L;
  private long lastCpuNanos = ProcessCpu.nanos();

  private LatencyRecord(boolean enabled) {
    this.enabled = enabled;
    hlogWriter.outputComment("microseconds; one interval per request name (tag) and second");
    intendedWriter.outputComment("microseconds from the intended send time; one interval per request name (tag) and second");
    for (HistogramLogWriter writer : List.of(hlogWriter, intendedWriter)) {
      writer.outputLogFormatVersion();
      writer.outputStartTime(startEpochMillis);
      writer.setBaseTime(startEpochMillis);
      writer.outputLegend();
    }
    ticker = enabled ? TICKER.scheduleAtFixedRate(this::takeIntervals, 1, 1, TimeUnit.SECONDS) : null;
  }

  /**
   * {@code -Dgatlingrpc.record=false} turns the record off (it is on by default): only to measure what
   * recording costs (bench/).
   */
  public static final String ENABLED_PROPERTY = "gatlingrpc.record";

  /**
   * The record of the running simulation, shared by all its RPC protocols, written when it ends (one
   * that records nothing when turned off).
   */
  static LatencyRecord of(CoreComponents core) {
    if (!Boolean.parseBoolean(System.getProperty(ENABLED_PROPERTY, "true"))) {
      return OFF;
    }
    synchronized (RUNS) {
      return RUNS.computeIfAbsent(
          core.actorSystem(),
          system -> {
            LatencyRecord record = new LatencyRecord(true);
            system.registerOnTermination(
                () -> {
                  try {
                    Path summary = record.write();
                    if (summary != null) {
                      System.out.println("Microsecond latency record: " + summary.toAbsolutePath());
                    }
                  } catch (IOException | RuntimeException e) {
                    LOG.error("writing the microsecond latency record failed", e);
                  }
                  return BoxedUnit.UNIT;
                });
            return record;
          });
    }
  }

  /**
   * An OK call; any thread, wait-free for the recording thread. {@code intendedNanos} is {@link
   * IntendedSend#NONE} unless a rate schedule set it.
   */
  void recordOk(String requestName, long intendedNanos, long sentNanos, long receivedNanos) {
    if (!enabled) {
      return;
    }
    Series s = series.computeIfAbsent(requestName, Series::new);
    recordTiming(s, intendedNanos, sentNanos, receivedNanos, true);
  }

  /**
   * The timings of one request name, looked up once: for a stream, every message of which is recorded
   * under its request name (a lookup per message was a measurable share of a message's cost).
   */
  Timings timings(String requestName) {
    return new Timings(enabled ? series.computeIfAbsent(requestName, Series::new) : null);
  }

  /** {@link #recordOk} and {@link #recordFailedCall} of one request name, without an intended send time. */
  final class Timings {
    private final Series s;

    private Timings(Series s) {
      this.s = s;
    }

    void ok(long sentNanos, long receivedNanos) {
      if (s != null) {
        recordTiming(s, IntendedSend.NONE, sentNanos, receivedNanos, true);
      }
    }

    void failed(long sentNanos, long receivedNanos, String message) {
      if (s != null) {
        recordTiming(s, IntendedSend.NONE, sentNanos, receivedNanos, false);
        s.countError(message);
      }
    }
  }

  /** A call that ended in a KO: timed as any call, and its message counted. */
  void recordFailedCall(
      String requestName, long intendedNanos, long sentNanos, long receivedNanos, String message) {
    if (!enabled) {
      return;
    }
    Series s = series.computeIfAbsent(requestName, Series::new);
    recordTiming(s, intendedNanos, sentNanos, receivedNanos, false);
    s.countError(message);
  }

  private void recordTiming(Series s, long intendedNanos, long sentNanos, long receivedNanos, boolean ok) {
    long micros = Math.min(MAX_MICROS, Math.max(0, (receivedNanos - sentNanos) / 1000));
    s.recorder.recordValue(micros);
    (ok ? s.ok : s.ko).increment();
    s.firstSent.accumulate(sentNanos);
    s.lastSent.accumulate(sentNanos);
    s.lastReceived.accumulate(receivedNanos);
    if (intendedNanos != IntendedSend.NONE) {
      // a send ahead of its time (timer granularity) is not credited: never below the service time
      long from = Math.min(intendedNanos, sentNanos);
      s.intended.recordValue(Math.min(MAX_MICROS, Math.max(0, (receivedNanos - from) / 1000)));
      if (sentNanos - intendedNanos > IntendedSend.LATE_NANOS) {
        s.late.increment();
      }
      s.firstIntended.accumulate(intendedNanos);
      s.lastIntended.accumulate(intendedNanos);
    }
    locateRunFolder();
  }

  /** At most once a second: until it is found, looking costs a scan of this process's open files. */
  private void locateRunFolder() {
    if (runFolder == null) {
      long now = System.nanoTime();
      if (now - lastLookNanos > 1_000_000_000L) {
        lastLookNanos = now;
        runFolder = RunFolder.find();
      }
    }
  }

  /** A call that failed before it was sent: KO, but no latency. */
  void recordUnsent(String requestName, String message) {
    if (!enabled) {
      return;
    }
    Series s = series.computeIfAbsent(requestName, Series::new);
    s.unsent.increment();
    s.countError(message);
    locateRunFolder();
  }

  private synchronized void takeIntervals() {
    long now = System.currentTimeMillis();
    long cpu = ProcessCpu.nanos();
    long cpuSpent = cpu - lastCpuNanos;
    lastCpuNanos = cpu;
    Map<Series, Long> callsBySeries = new HashMap<>();
    long calls = 0;
    for (Series s : series.values()) {
      s.tickKo(now);
      if (s.intended.used()) { // only calls a rate schedule paced have an intended send time
        if (s.intendedInterval == null) {
          s.intendedInterval = new Histogram(MAX_MICROS, 3);
        }
        Histogram intended = s.intended.intervalInto(s.intendedInterval);
        if (intended.getTotalCount() > 0) {
          s.intendedTotal.add(intended);
          stamp(intended, s, now);
          intendedWriter.outputIntervalHistogram(intended);
        }
      }
      Histogram interval = s.recorder.intervalInto(s.interval); // reused at the next tick: nothing below keeps it
      if (interval.getTotalCount() == 0) {
        continue;
      }
      stamp(interval, s, now);
      s.intervalStart = now;
      s.total.add(interval);
      hlogWriter.outputIntervalHistogram(interval);
      callsBySeries.put(s, interval.getTotalCount());
      calls += interval.getTotalCount();
    }
    for (Map.Entry<Series, Long> entry : callsBySeries.entrySet()) {
      entry.getKey().cpuNanos += (double) cpuSpent * entry.getValue() / calls;
    }
  }

  private static void stamp(Histogram interval, Series s, long nowMillis) {
    interval.setTag(s.name.replaceAll("[\\s,]", "_"));
    interval.setStartTimeStamp(s.intervalStart);
    interval.setEndTimeStamp(nowMillis);
  }

  /** Writes the files; returns the summary's path, or null when nothing was recorded. */
  synchronized Path write() throws IOException {
    ticker.cancel(false);
    takeIntervals();
    if (series.isEmpty() && streams.isEmpty()) {
      return null;
    }
    Path found = runFolder != null ? runFolder : RunFolder.find();
    Path folder = found != null ? found : RunFolder.fallback();
    Files.createDirectories(folder);
    hlogStream.flush();
    Files.write(folder.resolve(LOG_FILE), hlog.toByteArray());
    if (series.values().stream().anyMatch(s -> s.intendedTotal.getTotalCount() > 0)) {
      intendedStream.flush();
      Files.write(folder.resolve(INTENDED_LOG_FILE), intendedLog.toByteArray());
    }
    Map<String, Histogram> totals = new TreeMap<>();
    series.values().forEach(s -> totals.put(s.name, s.total));
    Path summary = folder.resolve(SUMMARY_FILE);
    Files.writeString(summary, summaryJson(totals));
    RunEnd.recorded(folder);
    return summary;
  }

  private String summaryJson(Map<String, Histogram> totals) {
    Histogram all = new Histogram(MAX_MICROS, 3);
    long ok = 0, ko = 0, first = Long.MAX_VALUE, last = Long.MIN_VALUE;
    StringBuilder json = new StringBuilder();
    json.append("{\n  \"unit\": \"microseconds\",\n");
    json.append("  \"measured\": \"from handing the request to the client to its response or failure\",\n");
    json.append("  \"requests\": {\n");
    int i = 0;
    for (Map.Entry<String, Histogram> entry : totals.entrySet()) {
      Series s = series.get(entry.getKey());
      Histogram h = entry.getValue();
      all.add(h);
      ok += s.ok.sum();
      ko += s.ko.sum() + s.unsent.sum();
      first = Math.min(first, s.firstSent.get());
      last = Math.max(last, s.lastReceived.get());
      json.append("    ").append(quote(entry.getKey())).append(": ");
      stats(json, h, s.ok.sum(), s.ko.sum() + s.unsent.sum(), s.firstSent.get(), s.lastReceived.get());
      json.setLength(json.length() - 1);
      json.append(String.format(Locale.ROOT, ", \"cpuPerCall\": %.2f",
          h.getTotalCount() > 0 ? s.cpuNanos / 1000 / h.getTotalCount() : 0.0));
      json.append(", \"koPerSecond\": ").append(s.koPerSecond);
      json.append(", \"errors\": {");
      int e = 0;
      Map<String, Long> byLabel = new TreeMap<>();
      for (ErrorKind kind : s.errors.values()) {
        byLabel.merge(kind.label(), kind.count.sum(), Long::sum);
      }
      for (Map.Entry<String, Long> error : byLabel.entrySet()) {
        json.append(e++ > 0 ? ", " : "").append(quote(error.getKey())).append(": ").append(error.getValue());
      }
      json.append("}");
      rate(json, s);
      json.append("}");
      json.append(++i < totals.size() ? ",\n" : "\n");
    }
    json.append("  },\n  \"all\": ");
    stats(json, all, ok, ko, first, last);
    appendStreams(json);
    json.append("\n}\n");
    return json.toString();
  }

  /**
   * A paced name's figures from the intended send time, its late sends, its achieved rate against the
   * schedule's, and whether the injector kept the rate (a warning the report and console repeat).
   */
  private static void rate(StringBuilder json, Series s) {
    Histogram h = s.intendedTotal;
    long count = h.getTotalCount();
    if (count == 0) {
      return;
    }
    json.append(", \"intended\": ");
    stats(json, h, s.ok.sum(), s.ko.sum(), s.firstIntended.get(), s.lastReceived.get());
    // both rates over the same count: calls per second between the first and the last send
    double targetRate = rate(count, s.firstIntended.get(), s.lastIntended.get());
    double achievedRate = rate(count, s.firstSent.get(), s.lastSent.get());
    long late = s.late.sum();
    json.append(String.format(Locale.ROOT, ", \"late\": %d, \"targetRate\": %.1f, \"achievedRate\": %.1f",
        late, targetRate, achievedRate));
    String warning = rateWarning(count, late, targetRate, achievedRate);
    json.append(", \"rateKept\": ").append(warning == null);
    if (warning != null) {
      json.append(", \"rateWarning\": ").append(quote(warning));
    }
  }

  private static double rate(long count, long firstNanos, long lastNanos) {
    return lastNanos > firstNanos ? (count - 1) * 1e9 / (lastNanos - firstNanos) : 0;
  }

  /** Calls sent later than 1 ms after their intended time may be this share of all before a run is flagged. */
  static final double MAX_LATE_SHARE = 0.01;
  /** The achieved rate may fall this far below the schedule's before a run is flagged. */
  static final double MIN_RATE_SHARE = 0.99;

  /** Why the injector did not keep the schedule, or null when it did. */
  public static String rateWarning(long count, long late, double targetRate, double achievedRate) {
    List<String> why = new ArrayList<>();
    if (targetRate > 0 && achievedRate < MIN_RATE_SHARE * targetRate) {
      why.add(String.format(Locale.ROOT, "achieved %.1f calls/s of %.1f scheduled (%.1f %%, below %.0f %%)",
          achievedRate, targetRate, 100 * achievedRate / targetRate, 100 * MIN_RATE_SHARE));
    }
    if (late > MAX_LATE_SHARE * count) {
      why.add(String.format(Locale.ROOT, "%d of %d calls (%.1f %%) sent more than 1 ms after their intended time",
          late, count, 100.0 * late / count));
    }
    return why.isEmpty() ? null
        : "THE INJECTOR DID NOT KEEP THE RATE: " + String.join("; ", why)
            + ". The figures measure the injector as much as the server.";
  }

  private static void stats(
      StringBuilder json, Histogram h, long ok, long ko, long firstNanos, long lastNanos) {
    long count = ok + ko;
    double seconds = lastNanos > firstNanos ? (lastNanos - firstNanos) / 1e9 : 0;
    boolean timed = h.getTotalCount() > 0;
    json.append(
        String.format(
            Locale.ROOT,
            "{\"count\": %d, \"ok\": %d, \"ko\": %d, \"throughput\": %.1f, \"min\": %d, \"mean\": %.1f,"
                + " \"p50\": %d, \"p90\": %d, \"p99\": %d, \"p999\": %d, \"p9999\": %d, \"max\": %d}",
            count,
            ok,
            ko,
            seconds > 0 ? h.getTotalCount() / seconds : 0.0,
            timed ? h.getMinValue() : 0,
            timed ? h.getMean() : 0.0,
            h.getValueAtPercentile(50),
            h.getValueAtPercentile(90),
            h.getValueAtPercentile(99),
            h.getValueAtPercentile(99.9),
            h.getValueAtPercentile(99.99),
            timed ? h.getMaxValue() : 0));
  }

  // ---- streams: per request name, streams opened and how they ended, messages sent and received,
  // and the distribution of whole-stream durations (open to close), in microseconds ----

  enum StreamEnd {
    COMPLETED,
    FAILED,
    CANCELLED
  }

  private final Map<String, StreamSeries> streams = new ConcurrentHashMap<>();

  /** Counts a stream opened; what it returns counts that stream's messages, with no lookup per message. */
  StreamMessages recordStreamOpened(String requestName) {
    if (!enabled) {
      return StreamMessages.NONE;
    }
    StreamSeries s = streams.computeIfAbsent(requestName, n -> new StreamSeries());
    s.opened.increment();
    return s;
  }

  /** The messages sent and received by the streams of one request name. */
  interface StreamMessages {
    StreamMessages NONE =
        new StreamMessages() {
          @Override
          public void sent() {}

          @Override
          public void received() {}
        };

    void sent();

    void received();
  }

  void recordStreamClosed(String requestName, long durationNanos, StreamEnd end) {
    if (!enabled) {
      return;
    }
    StreamSeries s = streams.computeIfAbsent(requestName, n -> new StreamSeries());
    s.ended.get(end).increment();
    s.durations.recordValue(Math.min(MAX_MICROS, Math.max(0, durationNanos / 1000)));
  }

  private void appendStreams(StringBuilder json) {
    if (streams.isEmpty()) {
      return;
    }
    json.append(",\n  \"streams\": {\n");
    int i = 0;
    for (Map.Entry<String, StreamSeries> entry : new TreeMap<>(streams).entrySet()) {
      StreamSeries s = entry.getValue();
      Histogram d = s.durations;
      boolean timed = d.getTotalCount() > 0;
      json.append("    ").append(quote(entry.getKey())).append(": ");
      json.append(
          String.format(
              Locale.ROOT,
              "{\"opened\": %d, \"completed\": %d, \"failed\": %d, \"cancelled\": %d,"
                  + " \"messagesSent\": %d, \"messagesReceived\": %d, \"duration\": {\"count\": %d,"
                  + " \"min\": %d, \"mean\": %.1f, \"p50\": %d, \"p90\": %d, \"p99\": %d, \"p999\": %d, \"max\": %d}}",
              s.opened.sum(),
              s.ended.get(StreamEnd.COMPLETED).sum(),
              s.ended.get(StreamEnd.FAILED).sum(),
              s.ended.get(StreamEnd.CANCELLED).sum(),
              s.sent.sum(),
              s.received.sum(),
              d.getTotalCount(),
              timed ? d.getMinValue() : 0,
              timed ? d.getMean() : 0.0,
              d.getValueAtPercentile(50),
              d.getValueAtPercentile(90),
              d.getValueAtPercentile(99),
              d.getValueAtPercentile(99.9),
              timed ? d.getMaxValue() : 0));
      json.append(++i < streams.size() ? ",\n" : "\n");
    }
    json.append("  }");
  }

  private static final class StreamSeries implements StreamMessages {
    final LongAdder opened = new LongAdder();
    final LongAdder sent = new LongAdder();
    final LongAdder received = new LongAdder();
    final Map<StreamEnd, LongAdder> ended = new java.util.EnumMap<>(StreamEnd.class);
    final Histogram durations = new org.HdrHistogram.ConcurrentHistogram(MAX_MICROS, 3);

    StreamSeries() {
      for (StreamEnd end : StreamEnd.values()) {
        ended.put(end, new LongAdder());
      }
    }

    @Override
    public void sent() {
      sent.increment();
    }

    @Override
    public void received() {
      received.increment();
    }
  }

  // ---- end of streams ----

  private static String quote(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  private static final class Series {
    final String name;
    final StripedRecorder recorder = new StripedRecorder(MAX_MICROS, 3);
    /** Each tick's interval of each recorder, filled again at the next one (ticker thread only). */
    final Histogram interval = new Histogram(MAX_MICROS, 3);
    Histogram intendedInterval;
    final Histogram total = new Histogram(MAX_MICROS, 3);
    final LongAdder ok = new LongAdder();
    final LongAdder ko = new LongAdder();
    final LongAdder unsent = new LongAdder();
    // min and max striped by thread once threads contend (as LongAdder): every event loop records into
    // the same series, and one shared field written per call moved its cache line between the cores
    final LongAccumulator firstSent = new LongAccumulator(Math::min, Long.MAX_VALUE);
    final LongAccumulator lastReceived = new LongAccumulator(Math::max, Long.MIN_VALUE);
    final LongAccumulator lastSent = new LongAccumulator(Math::max, Long.MIN_VALUE);
    /** From the intended send time, for calls a rate schedule paced; see {@link IntendedSend}. */
    final StripedRecorder intended = new StripedRecorder(MAX_MICROS, 3);
    final Histogram intendedTotal = new Histogram(MAX_MICROS, 3);
    final LongAdder late = new LongAdder();
    final LongAccumulator firstIntended = new LongAccumulator(Math::min, Long.MAX_VALUE);
    final LongAccumulator lastIntended = new LongAccumulator(Math::max, Long.MIN_VALUE);
    long intervalStart = System.currentTimeMillis();
    /** This process's CPU time in the seconds this name had calls, shared by calls (ticker thread only). */
    double cpuNanos;
    /** By {@linkplain ErrorKind#shape shape}: messages that differ only in their numbers are one kind. */
    final Map<String, ErrorKind> errors = new ConcurrentHashMap<>();
    /** KO calls per interval, as [end of interval (epoch ms), count]: the hlog's histograms mix OK and KO. */
    final StringJoiner koPerSecond = new StringJoiner(", ", "[", "]");
    private long koAtLastTick;

    Series(String name) {
      this.name = name;
    }

    void tickKo(long nowMillis) {
      long koNow = ko.sum() + unsent.sum();
      if (koNow > koAtLastTick) {
        koPerSecond.add("[" + nowMillis + ", " + (koNow - koAtLastTick) + "]");
        koAtLastTick = koNow;
      }
    }

    void countError(String message) {
      String text = message == null ? "(no message)" : message;
      String shape = ErrorKind.shape(text);
      ErrorKind kind = errors.get(shape);
      if (kind == null) {
        boolean full = errors.size() >= MAX_DISTINCT_ERRORS;
        kind = errors.computeIfAbsent(full ? OTHER_MESSAGES : shape, k -> new ErrorKind(full ? OTHER_MESSAGES : text));
      }
      kind.count(text);
    }
  }

  /** This JVM's CPU time, all threads. */
  public static final class ProcessCpu {
    private static final com.sun.management.OperatingSystemMXBean OS =
        java.lang.management.ManagementFactory.getPlatformMXBean(
            com.sun.management.OperatingSystemMXBean.class);

    private ProcessCpu() {}

    public static long nanos() {
      return OS.getProcessCpuTime();
    }
  }

  /** Where Gatling writes this run: the folder of the simulation.log it holds open. */
  static final class RunFolder {
    private RunFolder() {}

    static Path find() {
      Path fds = Paths.get("/proc/self/fd");
      if (!Files.isDirectory(fds)) {
        return null;
      }
      try (var links = Files.list(fds)) {
        return links
            .map(RunFolder::target)
            .filter(p -> p != null && p.getFileName() != null)
            .filter(p -> p.getFileName().toString().equals("simulation.log"))
            .map(Path::getParent)
            // the newest: a run that ended badly earlier in this JVM (tests) may have left its log open
            .max(java.util.Comparator.comparingLong(folder -> folder.toFile().lastModified()))
            .orElse(null);
      } catch (IOException | UncheckedIOException e) {
        return null;
      }
    }

    private static Path target(Path link) {
      try {
        return Files.readSymbolicLink(link);
      } catch (IOException | UnsupportedOperationException e) {
        return null;
      }
    }

    /** Without a simulation.log to follow: a folder of its own under target/gatling-rpc. */
    static Path fallback() {
      return Paths.get("target", "gatling-rpc", "run-" + System.currentTimeMillis());
    }
  }
}
