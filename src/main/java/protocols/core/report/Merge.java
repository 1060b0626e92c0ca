package protocols.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogWriter;
import protocols.core.LatencyRecord;
import protocols.core.report.RpcAssertions.Assertion;
import protocols.core.report.RunReport.Level;

/**
 * Several injectors' runs of one load made one run: {@code mvn -q compile exec:java@merge
 * -Druns=<run folders, comma-separated, or a folder of them> [-Dout=<folder>]}.
 *
 * <p>Their interval logs are merged per request name and per second: each injector's one-second
 * intervals fall into the wall-clock second that holds their middle, and HdrHistogram's add is exact,
 * so the merged percentiles are those of one histogram of every call. The merged folder holds
 * rpc-latency.json, rpc-latency.hlog, run.json and rpc-report.html; the runs' exact assertions and
 * {@code -Dbaseline}/{@code -Dgate} are checked on the merged figures, with the exit statuses of a run.
 */
public final class Merge {

  /** Exit status of a refused merge; the others are {@link RunEnd}'s. */
  public static final int REFUSED = 1;

  private static final ObjectMapper JSON = new ObjectMapper();
  /** The fields of rpc-latency.json a merge understands; any other (a newer record's) is named as not merged. */
  private static final Set<String> TOP = Set.of("unit", "measured", "requests", "all");
  private static final Set<String> PER_REQUEST = Set.of(
      "count", "ok", "ko", "throughput", "min", "mean", "p50", "p90", "p99", "p999", "p9999", "max",
      "cpuPerCall", "koPerSecond", "errors",
      // the rate mode's: recomputed from the merged intended-time log and the injectors' sums
      "intended", "late", "targetRate", "achievedRate", "rateKept", "rateWarning");

  private Merge() {}

  public static void main(String[] args) {
    int status;
    try {
      status = execute(System.getProperties(), System.out);
    } catch (IllegalArgumentException e) {
      System.err.println("merge refused: " + e.getMessage());
      status = REFUSED;
    } catch (IOException e) {
      System.err.println("merge failed: " + e);
      status = REFUSED;
    }
    System.exit(status);
  }

  /** Merges the runs that {@code -Druns} names into {@code -Dout}; returns the exit status. */
  public static int execute(Properties properties, PrintStream out) throws IOException {
    String runs = properties.getProperty("runs", "");
    if (runs.isBlank()) {
      throw new IllegalArgumentException("-Druns is missing: expected run folders, comma-separated, or a folder of them");
    }
    List<Run> found = find(runs);
    check(runs, found);
    Path target = Paths.get(properties.getProperty("out", Paths.get("target", "gatling-rpc", "merged-" + System.currentTimeMillis()).toString()));
    Files.createDirectories(target);
    merge(found, target, out);
    Run first = found.get(0);
    List<Assertion> assertions = new ArrayList<>();
    first.description.path("assertions").forEach(a -> assertions.add(RpcAssertions.read(a)));
    List<Level> levels = new ArrayList<>();
    first.description.path("levels").forEach(l -> levels.add(new Level(l.path("label").asText(), l.path("from").asLong(), l.path("to").asLong())));
    Map<String, String> settings = new LinkedHashMap<>();
    settings.put("simulation", first.description.path("simulation").asText());
    first.description.path("settings").fields().forEachRemaining(e -> settings.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString()));
    settings.put("injectors", String.valueOf(found.size()));
    if (!first.description.path("startAt").isNull()) {
      settings.put("startAt", first.description.path("startAt").asText());
    }
    settings.putAll(RunEnd.settings().entrySet().stream().filter(e -> e.getKey().equals("baseline") || e.getKey().equals("gate"))
        .collect(LinkedHashMap::new, (m, e) -> m.put(e.getKey(), e.getValue()), Map::putAll));
    out.println("Merged " + found.size() + " injectors' runs into " + target.toAbsolutePath());
    RunEnd.Outcome outcome = RunEnd.evaluate(RunData.read(target), assertions, levels,
        Duration.ofMillis(first.description.path("warmupMillis").asLong()), settings);
    return outcome.status();
  }

  /** One injector's run: its folder and its run.json. */
  record Run(Path folder, JsonNode description) {
    int index() {
      return description.path("injector").asInt();
    }
  }

  /** Every run folder (one holding run.json) in or under the listed folders, three levels deep at most. */
  static List<Run> find(String runs) throws IOException {
    List<Run> found = new ArrayList<>();
    for (String part : runs.split(",")) {
      Path folder = Paths.get(part.trim());
      if (!Files.isDirectory(folder)) {
        throw new IllegalArgumentException("-Druns: " + folder + " is not a folder; expected run folders, comma-separated, or a folder of them");
      }
      List<Path> files;
      try (Stream<Path> walk = Files.walk(folder, 3)) {
        files = walk.filter(p -> p.getFileName().toString().equals(RunEnd.RUN_FILE)).sorted().toList();
      }
      if (files.isEmpty()) {
        throw new IllegalArgumentException("-Druns: no " + RunEnd.RUN_FILE + " in or under " + folder
            + "; expected the run folder of an injector (a staircase simulation writes it)");
      }
      for (Path file : files) {
        Path run = file.getParent();
        if (!Files.isRegularFile(run.resolve(LatencyRecord.SUMMARY_FILE))) {
          throw new IllegalArgumentException("-Druns: " + run + " has no " + LatencyRecord.SUMMARY_FILE + ": that injector recorded no call");
        }
        JsonNode description = JSON.readTree(file.toFile());
        if (description.has("mergedFrom")) {
          continue; // an earlier merge of these runs, in the same folder
        }
        found.add(new Run(run, description));
      }
    }
    if (found.isEmpty()) {
      throw new IllegalArgumentException("-Druns=" + runs + ": only merged runs there; expected the injectors' own run folders");
    }
    return found;
  }

  /** The runs must be the parts, each once, of one load: same simulation, settings, injectors and start. */
  static void check(String runs, List<Run> found) {
    Run first = found.get(0);
    for (String key : List.of("simulation", "scenario", "settings", "injectors", "startAt")) {
      for (Run r : found) {
        if (!r.description.path(key).equals(first.description.path(key))) {
          throw new IllegalArgumentException("runs of different " + (key.equals("settings") ? "settings" : key) + ": "
              + first.folder + " has " + first.description.path(key) + ", " + r.folder + " has " + r.description.path(key));
        }
      }
    }
    int count = first.description.path("injectors").asInt();
    Map<Integer, Path> byIndex = new TreeMap<>();
    for (Run r : found) {
      Path other = byIndex.put(r.index(), r.folder);
      if (other != null) {
        throw new IllegalArgumentException("overlapping indexes: injector " + r.index() + " is both " + other + " and " + r.folder);
      }
    }
    List<Integer> missing = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      if (!byIndex.containsKey(i)) {
        missing.add(i);
      }
    }
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException("missing injector" + (missing.size() > 1 ? "s " : " ") + missing + " of " + count + " (-Druns=" + runs + " holds " + byIndex.keySet() + ")");
    }
  }

  /** The wall-clock second an interval (or a KO count stamped with an interval's end) belongs to. */
  static long second(long endMillis) {
    return Math.floorDiv(endMillis - 500, 1000);
  }

  private static void merge(List<Run> runs, Path target, PrintStream out) throws IOException {
    Map<String, TreeMap<Long, Histogram>> seconds = new TreeMap<>();
    Map<String, TreeMap<Long, Histogram>> intendedSeconds = new TreeMap<>();
    Map<String, Totals> totals = new TreeMap<>();
    Set<String> notMerged = new TreeSet<>();
    // started at one instant, the injectors ran side by side: their rates (each its calls over its own
    // calls' span) add up; else, calls over the merged seconds, edge seconds counted whole
    boolean together = !runs.get(0).description.path("startAt").isNull();
    double allThroughput = 0;
    for (Run run : runs) {
      RunData data = RunData.read(run.folder);
      JsonNode summary = JSON.readTree(run.folder.resolve(LatencyRecord.SUMMARY_FILE).toFile());
      summary.fieldNames().forEachRemaining(k -> { if (!TOP.contains(k)) notMerged.add(k); });
      allThroughput += summary.path("all").path("throughput").asDouble();
      for (String name : data.names()) {
        JsonNode n = summary.path("requests").path(name);
        n.fieldNames().forEachRemaining(k -> { if (!PER_REQUEST.contains(k)) notMerged.add(name + "." + k); });
        totals.computeIfAbsent(name, k -> new Totals()).add(n);
        bySecond(name, data.intervals(name), seconds.computeIfAbsent(name, k -> new TreeMap<>()));
        if (!data.intendedIntervals(name).isEmpty()) {
          bySecond(name, data.intendedIntervals(name), intendedSeconds.computeIfAbsent(name, k -> new TreeMap<>()));
        } else if (n.has("intended")) {
          notMerged.add(name + ".intended (" + run.folder + " has no " + LatencyRecord.INTENDED_LOG_FILE + ")");
        }
      }
    }
    if (!notMerged.isEmpty()) {
      out.println("not merged (fields this merge does not know, or a run lacks the log to merge them from): " + notMerged);
    }
    writeLog(target.resolve(LatencyRecord.LOG_FILE), seconds, "microseconds; one interval per request name (tag) and second; merged from " + runs.size() + " injectors");
    if (!intendedSeconds.isEmpty()) {
      writeLog(target.resolve(LatencyRecord.INTENDED_LOG_FILE), intendedSeconds,
          "microseconds from the intended send time; one interval per request name (tag) and second; merged from " + runs.size() + " injectors");
    }
    ObjectNode summary = JSON.createObjectNode();
    summary.put("unit", "microseconds");
    summary.put("measured", "from handing the request to the client to its response or failure; merged from " + runs.size() + " injectors");
    ObjectNode requests = summary.putObject("requests");
    Histogram all = new Histogram(3);
    long ok = 0, ko = 0, first = Long.MAX_VALUE, last = Long.MIN_VALUE;
    for (Map.Entry<String, Totals> e : totals.entrySet()) {
      TreeMap<Long, Histogram> byS = seconds.getOrDefault(e.getKey(), new TreeMap<>());
      Histogram h = new Histogram(3);
      byS.values().forEach(h::add);
      all.add(h);
      Totals t = e.getValue();
      ok += t.ok;
      ko += t.ko;
      long from = byS.isEmpty() ? 0 : byS.firstKey() * 1000, to = byS.isEmpty() ? 0 : byS.lastKey() * 1000 + 1000;
      if (!byS.isEmpty()) {
        first = Math.min(first, from);
        last = Math.max(last, to);
      }
      ObjectNode n = stats(requests.putObject(e.getKey()), h, t.ok, t.ko, (to - from) / 1000.0);
      if (together) {
        n.put("throughput", Math.round(t.throughput * 10) / 10.0);
      }
      n.put("cpuPerCall", t.count == 0 ? 0 : Math.round(t.cpuMicros / t.count * 100) / 100.0);
      ArrayNode koPerSecond = n.putArray("koPerSecond");
      t.koBySecond.forEach((s, count) -> koPerSecond.addArray().add(s * 1000 + 1000).add(count));
      ObjectNode errors = n.putObject("errors");
      t.errors.forEach(errors::put);
      TreeMap<Long, Histogram> intended = intendedSeconds.get(e.getKey());
      if (intended != null) {
        rate(n, intended, t, together);
      }
    }
    ObjectNode allNode = stats(summary.putObject("all"), all, ok, ko, last > first ? (last - first) / 1000.0 : 0);
    if (together) {
      allNode.put("throughput", Math.round(allThroughput * 10) / 10.0);
    }
    summary.put("injectors", runs.size());
    ArrayNode from = summary.putArray("mergedFrom");
    runs.forEach(r -> from.add(r.folder.toAbsolutePath().toString()));
    JSON.writerWithDefaultPrettyPrinter().writeValue(target.resolve(LatencyRecord.SUMMARY_FILE).toFile(), summary);
    ObjectNode description = runs.get(0).description.deepCopy();
    description.remove("injector");
    description.remove("shares");
    description.set("mergedFrom", from);
    JSON.writerWithDefaultPrettyPrinter().writeValue(target.resolve(RunEnd.RUN_FILE).toFile(), description);
  }

  /** Each interval added into the wall-clock second holding its middle. */
  private static void bySecond(String name, List<Histogram> intervals, TreeMap<Long, Histogram> byS) {
    for (Histogram h : intervals) {
      long s = second(h.getEndTimeStamp());
      Histogram sum = byS.computeIfAbsent(s, k -> new Histogram(3));
      sum.add(h);
      // add() widens the timestamps to the added interval's: the merged one is the whole second
      sum.setStartTimeStamp(s * 1000);
      sum.setEndTimeStamp(s * 1000 + 1000);
      sum.setTag(RunData.tag(name));
    }
  }

  private static void writeLog(Path file, Map<String, TreeMap<Long, Histogram>> seconds, String comment) throws IOException {
    long start = seconds.values().stream().filter(m -> !m.isEmpty()).mapToLong(m -> m.firstKey() * 1000).min().orElse(0);
    try (PrintStream log = new PrintStream(Files.newOutputStream(file))) {
      HistogramLogWriter writer = new HistogramLogWriter(log);
      writer.outputComment(comment);
      writer.outputLogFormatVersion();
      writer.outputStartTime(start);
      writer.setBaseTime(start);
      writer.outputLegend();
      for (TreeMap<Long, Histogram> byS : seconds.values()) {
        for (Histogram h : byS.values()) {
          writer.outputIntervalHistogram(h);
        }
      }
    }
  }

  /**
   * The rate mode's figures of a merged name: the intended-time histogram merged as the service-time
   * one; late sends, scheduled and achieved rates summed (each injector ran its share of the schedule
   * at once, so their rates add up to the whole); the warning judged on those sums.
   */
  private static void rate(ObjectNode n, TreeMap<Long, Histogram> bySecond, Totals t, boolean together) {
    Histogram h = new Histogram(3);
    bySecond.values().forEach(h::add);
    double seconds = (bySecond.lastKey() - bySecond.firstKey() + 1);
    ObjectNode intended = stats(n.putObject("intended"), h, t.intendedOk, t.intendedKo, seconds);
    if (together) {
      intended.put("throughput", Math.round(t.intendedThroughput * 10) / 10.0);
    }
    n.put("late", t.late);
    n.put("targetRate", Math.round(t.targetRate * 10) / 10.0);
    n.put("achievedRate", Math.round(t.achievedRate * 10) / 10.0);
    String warning = LatencyRecord.rateWarning(h.getTotalCount(), t.late, t.targetRate, t.achievedRate);
    n.put("rateKept", warning == null);
    if (warning != null) {
      n.put("rateWarning", warning);
    }
  }

  /** The figures of rpc-latency.json: counts of every call, latencies of the timed ones. */
  private static ObjectNode stats(ObjectNode n, Histogram h, long ok, long ko, double seconds) {
    long count = ok + ko;
    boolean timed = h.getTotalCount() > 0;
    n.put("count", count).put("ok", ok).put("ko", ko)
        .put("throughput", seconds > 0 ? Math.round(h.getTotalCount() / seconds * 10) / 10.0 : 0)
        .put("min", timed ? h.getMinValue() : 0).put("mean", timed ? Math.round(h.getMean() * 10) / 10.0 : 0)
        .put("p50", h.getValueAtPercentile(50)).put("p90", h.getValueAtPercentile(90))
        .put("p99", h.getValueAtPercentile(99)).put("p999", h.getValueAtPercentile(99.9))
        .put("p9999", h.getValueAtPercentile(99.99)).put("max", timed ? h.getMaxValue() : 0);
    return n;
  }

  /** What adds up across injectors for one request name. */
  private static final class Totals {
    long count, ok, ko, intendedOk, intendedKo, late;
    double cpuMicros, throughput, intendedThroughput, targetRate, achievedRate;
    final Map<Long, Long> koBySecond = new TreeMap<>();
    final Map<String, Long> errors = new TreeMap<>();

    void add(JsonNode n) {
      count += n.path("count").asLong();
      ok += n.path("ok").asLong();
      ko += n.path("ko").asLong();
      throughput += n.path("throughput").asDouble();
      cpuMicros += n.path("cpuPerCall").asDouble() * n.path("count").asLong();
      n.path("koPerSecond").forEach(tick -> koBySecond.merge(second(tick.get(0).asLong()), tick.get(1).asLong(), Long::sum));
      n.path("errors").fields().forEachRemaining(e -> errors.merge(e.getKey(), e.getValue().asLong(), Long::sum));
      JsonNode intended = n.path("intended");
      intendedOk += intended.path("ok").asLong();
      intendedKo += intended.path("ko").asLong();
      intendedThroughput += intended.path("throughput").asDouble();
      late += n.path("late").asLong();
      targetRate += n.path("targetRate").asDouble();
      achievedRate += n.path("achievedRate").asDouble();
    }
  }
}
