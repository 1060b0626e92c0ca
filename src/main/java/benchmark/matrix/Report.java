package benchmark.matrix;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import protocols.core.report.Gate;
import protocols.core.report.HtmlPage;

/**
 * Turns a matrix's {@code results.json} into {@code report.html} (one self-contained page: Chart.js
 * inlined, no network) and {@code results.csv}; compared with a baseline result, shows the change per
 * cell and counts the regressions beyond the gate's thresholds.
 *
 * <pre>mvn -q compile exec:java@report -Dresults=target/benchmark/X/results.json -Dbaseline=old/results.json -Dgate=throughput:10,p99:20</pre>
 *
 * Exits 1 when the gate finds a regression, 2 on bad input.
 */
public final class Report {

  private static final ObjectMapper JSON = new ObjectMapper();

  private Report() {}

  public static void main(String[] args) {
    String results = System.getProperty("results", args.length > 0 ? args[0] : null);
    try {
      if (results == null) {
        throw new IllegalArgumentException("-Dresults: expected the path of a matrix's results.json");
      }
      String baseline = System.getProperty("baseline");
      int regressions =
          write(Paths.get(results), baseline == null || baseline.isBlank() ? null : Paths.get(baseline), System.getProperty("gate", ""));
      System.out.println("Comparison report: " + Paths.get(results).resolveSibling("report.html").toAbsolutePath());
      System.exit(regressions > 0 ? 1 : 0);
    } catch (IllegalArgumentException e) {
      System.err.println("Invalid input " + e.getMessage());
      System.exit(2);
    } catch (IOException e) {
      System.err.println("Report failed: " + e);
      System.exit(2);
    }
  }

  /** Writes the report next to {@code resultsFile}; returns how many figures regressed past the gate. */
  public static int write(Path resultsFile, Path baselineFile, String gate) throws IOException {
    Results results = read(resultsFile, "-Dresults");
    Results baseline = baselineFile == null ? null : read(baselineFile, "-Dbaseline");
    Gate thresholds = Gate.parse(gate);
    List<String> regressions = baseline == null ? List.of() : regressions(results, baseline, thresholds);
    regressions.forEach(r -> System.err.println("REGRESSION " + r));
    Files.writeString(resultsFile.resolveSibling("results.csv"), csv(results));
    if (!results.saturation().isEmpty()) {
      Files.writeString(resultsFile.resolveSibling("saturation.csv"), saturationCsv(results));
    }
    Files.writeString(resultsFile.resolveSibling("report.html"), html(results, baseline, thresholds.thresholds(), regressions));
    return regressions.size();
  }

  static Results read(Path file, String what) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(what + "=" + file + ": no such file; expected a results.json written by the matrix command");
    }
    Results results;
    try {
      results = JSON.readValue(file.toFile(), Results.class);
    } catch (IOException e) {
      throw new IllegalArgumentException(what + "=" + file + ": not a matrix result (" + Objects.requireNonNullElse(e.getMessage(), e.toString()).lines().findFirst().orElse("") + ")");
    }
    if (!Results.FORMAT.equals(results.format())) {
      throw new IllegalArgumentException(what + "=" + file + ": format '" + results.format() + "', expected '" + Results.FORMAT + "'");
    }
    return results;
  }

  /** "throughput:10,p99:20": fail when throughput drops more than 10 %, or p99 rises more than 20 %. */
  static Map<String, Double> parseGate(String gate) {
    return Gate.parse(gate).thresholds();
  }

  static double value(Cell c, String metric) {
    return switch (metric) {
      case "throughput" -> c.throughput();
      case "mean" -> c.mean();
      case "p50" -> c.p50();
      case "p90" -> c.p90();
      case "p99" -> c.p99();
      case "p999" -> c.p999();
      case "max" -> c.max();
      default -> throw new IllegalArgumentException(metric);
    };
  }

  /** The gated figures of a cell, by {@link Gate}'s metric names. */
  static Map<String, Double> figures(Cell c) {
    Map<String, Double> figures = new LinkedHashMap<>();
    Gate.METRICS.keySet().forEach(metric -> figures.put(metric, value(c, metric)));
    return figures;
  }

  static List<String> regressions(Results current, Results baseline, Gate gate) {
    List<String> found = new ArrayList<>();
    for (Cell cell : current.cells()) {
      Cell base = find(baseline, cell.framework(), cell.level());
      if (base == null) {
        continue;
      }
      String what = cell.framework() + " at " + cell.level();
      if (base.passed() && !cell.passed() && !gate.isEmpty()) {
        found.add(what + ": failed (" + cell.reason() + "), baseline passed");
      } else if (base.passed() && cell.passed()) {
        found.addAll(gate.regressions(what, figures(cell), figures(base)));
      }
    }
    return found;
  }

  static Cell find(Results results, String framework, int level) {
    return results.cells().stream().filter(c -> c.framework().equals(framework) && c.level() == level).findFirst().orElse(null);
  }

  static String csv(Results results) {
    StringBuilder out = new StringBuilder("framework,level,status,count,ok,ko,success_rate_percent,throughput_per_s,min_us,mean_us,p50_us,p90_us,p99_us,p999_us,max_us,reason\n");
    for (Cell c : results.cells()) {
      out.append(String.format(Locale.ROOT, "%s,%d,%s,%d,%d,%d,%.3f,%.1f,%d,%.1f,%d,%d,%d,%d,%d,%s%n",
          c.framework(), c.level(), c.status(), c.count(), c.ok(), c.ko(), c.successRate(), c.throughput(),
          c.min(), c.mean(), c.p50(), c.p90(), c.p99(), c.p999(), c.max(),
          c.reason() == null ? "" : "\"" + c.reason().replace("\"", "\"\"") + "\""));
    }
    return out.toString();
  }

  static String saturationCsv(Results results) {
    StringBuilder out = new StringBuilder("framework,target_per_s,achieved_per_s,status,count,ko,late,service_p50_us,service_p99_us,"
        + "intended_p50_us,intended_p90_us,intended_p99_us,intended_p999_us,sustainable,verdict\n");
    for (SweepStep s : results.saturation()) {
      out.append(String.format(Locale.ROOT, "%s,%d,%.1f,%s,%d,%d,%d,%d,%d,%d,%d,%d,%d,%b,%s%n", s.framework(), s.rate(), s.achievedRate(), s.status(),
          s.count(), s.ko(), s.late(), s.serviceP50(), s.serviceP99(), s.intendedP50(), s.intendedP90(), s.intendedP99(), s.intendedP999(),
          s.sustainable(), s.verdict() == null ? "" : "\"" + s.verdict().replace("\"", "\"\"") + "\""));
    }
    return out.toString();
  }

  static String html(Results results, Results baseline, Map<String, Double> thresholds, List<String> regressions) throws IOException {
    ObjectNode data = JSON.createObjectNode();
    data.set("results", JSON.valueToTree(results));
    ArrayNode frameworks = data.putArray("frameworks");
    for (Framework f : Framework.ALL) {
      if (results.cells().stream().anyMatch(c -> c.framework().equals(f.id()))
          || results.saturation().stream().anyMatch(st -> st.framework().equals(f.id()))) {
        frameworks.addObject().put("id", f.id()).put("label", f.label());
      }
    }
    ObjectNode seed = data.putObject("seed");
    seed.set("levels", JSON.valueToTree(SeedResults.LEVELS));
    seed.set("throughput", JSON.valueToTree(SeedResults.THROUGHPUT));
    seed.set("meanMs", JSON.valueToTree(SeedResults.MEAN_MS));
    seed.put("setup", SeedResults.SETUP);
    if (baseline != null) {
      data.set("baseline", JSON.valueToTree(baseline));
      data.set("gate", JSON.valueToTree(thresholds));
      data.set("regressions", JSON.valueToTree(regressions));
    }
    return HtmlPage.render("benchmark/matrix/report.html", data);
  }
}
