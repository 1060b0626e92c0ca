package protocols.core.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * rpc-report.html of one run: the exact figures per request name and for all, the percentile
 * distribution, the run second by second, the staircase's levels (each over its hold window only), the
 * KO messages, the settings, and what Gatling's own report says next to it. Its model is the run's
 * folder plus what the run declared ({@link RunEnd}); everything on the page is in its JSON data.
 */
public final class RunReport {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final RunData data;
  private final List<Level> levels;
  private final long warmupMillis;
  private final List<AssertionResult> assertions;
  private final GateResult gate;
  private final Map<String, String> settings;

  /** A staircase level: its label and its hold window (epoch ms). */
  public record Level(String label, long fromMillis, long toMillis) {}

  /** An assertion's outcome; {@code actual} is formatted in the metric's unit. */
  public record AssertionResult(String description, boolean success, String actual) {}

  /** The gate's comparison with a baseline: change in percent per request name and metric, or why there is none. */
  public record GateResult(String baseline, Map<String, Double> thresholds, Map<String, Map<String, Double>> changes, List<String> regressions, String error) {}

  public RunReport(RunData data, List<Level> levels, long warmupMillis, List<AssertionResult> assertions, GateResult gate, Map<String, String> settings) {
    this.data = data;
    this.levels = List.copyOf(levels);
    this.warmupMillis = warmupMillis;
    this.assertions = List.copyOf(assertions);
    this.gate = gate;
    this.settings = settings;
  }

  /** Writes the page; Gatling's figures are shown when Gatling wrote its report into the folder. */
  public Path write(Map<String, Map<String, Double>> gatling) throws IOException {
    Path page = data.folder().resolve(RunEnd.PAGE);
    Files.writeString(page, HtmlPage.render("protocols/core/report/rpc-report.html", model(gatling)));
    return page;
  }

  ObjectNode model(Map<String, Map<String, Double>> gatling) {
    ObjectNode m = JSON.createObjectNode();
    m.put("run", data.folder().getFileName().toString());
    m.put("writtenAt", Instant.now().toString());
    m.put("warmupSeconds", warmupMillis / 1000.0);
    ArrayNode requests = m.putArray("requests");
    List<String> names = new ArrayList<>(data.names());
    names.add(RunData.ALL);
    long first = data.firstMillis();
    for (String name : names) {
      ObjectNode r = requests.addObject();
      r.put("name", name);
      r.set("exact", JSON.valueToTree(data.stats(name)));
      data.rate(name).ifPresent(rate -> r.set("rate", JSON.valueToTree(rate)));
      Histogram h = data.histogram(name);
      r.set("distribution", distribution(h));
      if (warmupMillis > 0) {
        r.set("afterWarmup", JSON.valueToTree(data.window(name, first + warmupMillis, Long.MAX_VALUE).stats()));
      }
      Map<String, Double> g = gatling.get(name);
      if (g != null) {
        ObjectNode exactAtGatling = r.putObject("exactAtGatlingPercentiles");
        g.keySet().stream().filter(k -> k.matches("p\\d+")).forEach(k -> exactAtGatling.put(k, h.getValueAtPercentile(rank(k))));
        r.set("gatling", JSON.valueToTree(g));
      }
      ArrayNode errors = r.putArray("errors");
      if (!RunData.ALL.equals(name)) {
        data.errors(name).forEach((message, count) -> errors.addObject().put("message", message).put("count", count));
      }
    }
    m.put("gatlingReport", !gatling.isEmpty());
    ArrayNode timeline = m.putArray("timeline");
    for (RunData.Second s : data.timeline()) {
      Histogram h = s.histogram();
      double seconds = Math.max(1, s.endMillis() - s.startMillis()) / 1000.0;
      timeline.addObject()
          .put("t", (s.endMillis() - first) / 1000.0)
          .put("throughput", h.getTotalCount() / seconds)
          .put("p50", h.getValueAtPercentile(50))
          .put("p99", h.getValueAtPercentile(99))
          .put("max", h.getMaxValue())
          .put("ko", s.ko());
    }
    ArrayNode levelsNode = m.putArray("levels");
    for (Level level : levels) {
      ObjectNode l = levelsNode.addObject();
      l.put("label", level.label()).put("from", (level.fromMillis() - first) / 1000.0).put("to", (level.toMillis() - first) / 1000.0);
      ObjectNode byName = l.putObject("requests");
      for (String name : names) {
        byName.set(name, JSON.valueToTree(data.window(name, level.fromMillis(), level.toMillis()).stats()));
      }
    }
    m.set("assertions", JSON.valueToTree(assertions));
    if (gate != null) {
      m.set("gate", JSON.valueToTree(gate));
    }
    m.set("settings", JSON.valueToTree(settings));
    m.set("machine", JSON.valueToTree(Environment.machine()));
    m.set("versions", JSON.valueToTree(Environment.libraryVersions(System.getProperty("java.class.path", ""))));
    return m;
  }

  /** "p99" → 99, "p999" → 99.9 (Gatling's header "99.9th pct" read without its dot). */
  static double rank(String key) {
    String digits = key.substring(1);
    return digits.length() <= 2 ? Double.parseDouble(digits) : Double.parseDouble(digits.substring(0, 2) + "." + digits.substring(2));
  }

  /** HdrHistogram's percentile distribution: [1/(1-p), latency µs] up to the last value below 100 %. */
  private static ArrayNode distribution(Histogram h) {
    ArrayNode points = JSON.createArrayNode();
    if (h.getTotalCount() == 0) {
      return points;
    }
    for (HistogramIterationValue v : h.percentiles(5)) {
      double p = v.getPercentileLevelIteratedTo();
      if (p >= 100.0) {
        break;
      }
      points.addArray().add(1 / (1 - p / 100)).add(v.getValueIteratedTo());
    }
    return points;
  }

  /** The exact table as the console shows it at the end of the run, latencies in ms with µs precision. */
  public String consoleTable() {
    StringBuilder out = new StringBuilder();
    String format = "%-28s %10s %10s %8s %10s %9s %9s %9s %9s %9s %9s %9s %9s%n";
    out.append(String.format(Locale.ROOT, format, "request (exact, ms)", "count", "OK", "KO", "calls/s",
        "min", "mean", "p50", "p90", "p99", "p99.9", "p99.99", "max"));
    List<String> names = new ArrayList<>(data.names());
    names.add(RunData.ALL);
    StringBuilder rates = new StringBuilder();
    for (String name : names) {
      Stats s = data.stats(name);
      out.append(String.format(Locale.ROOT, format, name.length() > 28 ? name.substring(0, 27) + "…" : name,
          s.count(), s.ok(), s.ko(), String.format(Locale.ROOT, "%.1f", s.throughput()),
          ms(s.min()), ms(s.mean()), ms(s.p50()), ms(s.p90()), ms(s.p99()), ms(s.p999()), ms(s.p9999()), ms(s.max())));
      data.rate(name).ifPresent(rate -> {
        Stats i = rate.intended();
        out.append(String.format(Locale.ROOT, format, "  from intended send", i.count(), i.ok(), i.ko(),
            String.format(Locale.ROOT, "%.1f", rate.achievedRate()),
            ms(i.min()), ms(i.mean()), ms(i.p50()), ms(i.p90()), ms(i.p99()), ms(i.p999()), ms(i.p9999()), ms(i.max())));
        rates.append(String.format(Locale.ROOT, "%s: scheduled %.1f calls/s, achieved %.1f, %d sent more than 1 ms late%n",
            name, rate.targetRate(), rate.achievedRate(), rate.late()));
        if (rate.warning() != null) {
          rates.append("!!! ").append(name).append(": ").append(rate.warning()).append(" !!!\n");
        }
      });
    }
    if (rates.length() > 0) {
      out.append("Rate mode: the first row of a name is the service time (from the actual send), the second the"
          + " response time from the intended send time (what a caller at that rate waits).\n").append(rates);
    }
    return out.toString();
  }

  private static String ms(double micros) {
    return String.format(Locale.ROOT, "%.3f", micros / 1000);
  }
}
