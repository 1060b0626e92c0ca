package protocols.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.EncodableHistogram;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import protocols.core.LatencyRecord;

/**
 * A run's microsecond record as its folder holds it, read-only: rpc-latency.json (per request name and
 * for all) and rpc-latency.hlog (one histogram per request name and second), from which any time window
 * is cut.
 */
public final class RunData {

  public static final String ALL = "all";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path folder;
  private final JsonNode summary;
  /** Request names in the summary's order; the hlog tags them with blanks and commas replaced. */
  private final Map<String, List<Histogram>> intervals = new LinkedHashMap<>();
  /** The same from the intended send time (rpc-intended.hlog), for the names a rate schedule paced. */
  private final Map<String, List<Histogram>> intendedIntervals = new LinkedHashMap<>();

  private RunData(Path folder, JsonNode summary) {
    this.folder = folder;
    this.summary = summary;
  }

  public static RunData read(Path folder) throws IOException {
    RunData data = new RunData(folder, JSON.readTree(folder.resolve(LatencyRecord.SUMMARY_FILE).toFile()));
    Map<String, String> names = new LinkedHashMap<>();
    data.names().forEach(name -> {
      names.put(tag(name), name);
      data.intervals.put(name, new ArrayList<>());
    });
    readLog(folder.resolve(LatencyRecord.LOG_FILE), names, data.intervals);
    readLog(folder.resolve(LatencyRecord.INTENDED_LOG_FILE), names, data.intendedIntervals);
    return data;
  }

  private static void readLog(Path log, Map<String, String> names, Map<String, List<Histogram>> into) throws IOException {
    if (!Files.exists(log)) {
      return;
    }
    try (InputStream in = new FileInputStream(log.toFile())) {
      HistogramLogReader reader = new HistogramLogReader(in);
      for (EncodableHistogram e = reader.nextIntervalHistogram(); e != null; e = reader.nextIntervalHistogram()) {
        String name = names.get(e.getTag());
        if (name != null && e instanceof Histogram h) {
          into.computeIfAbsent(name, k -> new ArrayList<>()).add(h);
        }
      }
    }
  }

  static String tag(String name) {
    return name.replaceAll("[\\s,]", "_");
  }

  public Path folder() {
    return folder;
  }

  public List<String> names() {
    List<String> names = new ArrayList<>();
    summary.path("requests").fieldNames().forEachRemaining(names::add);
    return names;
  }

  /** The whole run's figures of a request name, or of {@link #ALL}, as rpc-latency.json states them. */
  public Stats stats(String name) {
    return Stats.of(node(name));
  }

  JsonNode node(String name) {
    return ALL.equals(name) ? summary.path("all") : summary.path("requests").path(name);
  }

  /**
   * A request name's figures measured from the intended send time, when a rate schedule paced it: its
   * late sends, scheduled and achieved rates, and why the injector did not keep the rate (null when it
   * did). Empty for a name no schedule paced, and for {@link #ALL}.
   */
  public java.util.Optional<Rate> rate(String name) {
    JsonNode n = node(name);
    if (!n.has("intended")) {
      return java.util.Optional.empty();
    }
    return java.util.Optional.of(new Rate(Stats.of(n.path("intended")), n.path("late").asLong(),
        n.path("targetRate").asDouble(), n.path("achievedRate").asDouble(),
        n.hasNonNull("rateWarning") ? n.path("rateWarning").asText() : null));
  }

  /** See {@link #rate}. */
  public record Rate(Stats intended, long late, double targetRate, double achievedRate, String warning) {}

  /** The KO messages of a request name with their counts. */
  public Map<String, Long> errors(String name) {
    Map<String, Long> errors = new TreeMap<>();
    node(name).path("errors").fields().forEachRemaining(e -> errors.put(e.getKey(), e.getValue().asLong()));
    return errors;
  }

  /** The per-second histograms of a request name, or of all names. */
  public List<Histogram> intervals(String name) {
    if (!ALL.equals(name)) {
      return intervals.getOrDefault(name, List.of());
    }
    List<Histogram> all = new ArrayList<>();
    intervals.values().forEach(all::addAll);
    return all;
  }

  /** The per-second histograms of a request name from the intended send time; empty when no schedule paced it. */
  public List<Histogram> intendedIntervals(String name) {
    return intendedIntervals.getOrDefault(name, List.of());
  }

  /** The whole run of a request name, or of all: the summary's figures and the sum of its intervals. */
  public Calls whole(String name) {
    return new Calls(stats(name), histogram(name));
  }

  /** The whole run's histogram of a request name, or of all (the sum of its intervals). */
  public Histogram histogram(String name) {
    return sum(intervals(name));
  }

  /** When the first interval started (epoch ms), about the first call; 0 when nothing was timed. */
  public long firstMillis() {
    return intervals(ALL).stream().mapToLong(Histogram::getStartTimeStamp).min().orElse(0);
  }

  /**
   * The figures of the whole seconds that lie inside [{@code fromMillis}, {@code toMillis}] (epoch ms):
   * the record keeps one histogram per second, so a window is cut at its boundaries. The histogram's
   * start and end time stamps are those of the first and last of those seconds.
   */
  public Calls window(String name, long fromMillis, long toMillis) {
    List<Histogram> inside = new ArrayList<>();
    long start = Long.MAX_VALUE, end = Long.MIN_VALUE;
    for (Histogram h : intervals(name)) {
      if (h.getStartTimeStamp() >= fromMillis && h.getEndTimeStamp() <= toMillis) {
        inside.add(h);
        start = Math.min(start, h.getStartTimeStamp());
        end = Math.max(end, h.getEndTimeStamp());
      }
    }
    long ko = 0;
    for (String n : ALL.equals(name) ? names() : List.of(name)) {
      for (JsonNode tick : node(n).path("koPerSecond")) {
        long at = tick.get(0).asLong();
        // a KO count is stamped with the end of the interval it fell in
        if (at > fromMillis && at <= toMillis && at >= start && at <= end) {
          ko += tick.get(1).asLong();
        }
      }
    }
    Histogram h = sum(inside);
    if (!inside.isEmpty()) {
      h.setStartTimeStamp(start);
      h.setEndTimeStamp(end);
    }
    return new Calls(Stats.of(h, ko, inside.isEmpty() ? 0 : (end - start) / 1000.0), h);
  }

  /** One row per second of the run over all request names: [start ms, end ms, histogram, KO]. */
  public List<Second> timeline() {
    Map<Long, Histogram> byEnd = new TreeMap<>();
    for (Histogram h : intervals(ALL)) {
      byEnd.computeIfAbsent(h.getEndTimeStamp(), end -> {
        Histogram sum = new Histogram(3);
        sum.setStartTimeStamp(h.getStartTimeStamp());
        return sum;
      }).add(h);
      Histogram sum = byEnd.get(h.getEndTimeStamp());
      sum.setStartTimeStamp(Math.min(sum.getStartTimeStamp(), h.getStartTimeStamp()));
    }
    Map<Long, Long> ko = new TreeMap<>();
    for (String n : names()) {
      for (JsonNode tick : node(n).path("koPerSecond")) {
        ko.merge(tick.get(0).asLong(), tick.get(1).asLong(), Long::sum);
      }
    }
    List<Second> seconds = new ArrayList<>();
    byEnd.forEach((end, h) -> seconds.add(new Second(h.getStartTimeStamp(), end, h, ko.getOrDefault(end, 0L))));
    return seconds;
  }

  /** One second of the run. */
  public record Second(long startMillis, long endMillis, Histogram histogram, long ko) {}

  private static Histogram sum(List<Histogram> histograms) {
    Histogram sum = new Histogram(3);
    histograms.forEach(sum::add);
    return sum;
  }
}
