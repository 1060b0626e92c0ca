package protocols.core.report;

import protocols.core.Durations;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import protocols.core.LatencyRecord;
import protocols.core.report.RpcAssertions.Assertion;
import protocols.core.report.RunReport.AssertionResult;
import protocols.core.report.RunReport.GateResult;
import protocols.core.report.RunReport.Level;

/**
 * The end of a run, in two steps, because Gatling writes its own report after the simulation ended:
 *
 * <ol>
 *   <li>{@link #recorded}, when the microsecond record is written (the actor system terminates): checks the
 *       exact assertions and the baseline gate, writes rpc-report.html and rpc-assertions.xml, prints the
 *       exact table;
 *   <li>{@link #finish}, after Gatling wrote index.html: puts Gatling's figures next to the exact ones,
 *       links index.html to the page, and says whether the run failed. {@code mvn gatling:test} runs
 *       Gatling in a forked JVM whose main method exits right after the report: a shutdown hook does this
 *       step there and, when an exact assertion or the gate failed, ends the JVM with that status (Gatling
 *       offers no later hook). An in-process run (testkit's GatlingRun) calls it itself.
 * </ol>
 */
public final class RunEnd {

  public static final String PAGE = "rpc-report.html";
  public static final String ASSERTIONS_XML = "rpc-assertions.xml";
  /** What part of which load a run was (a staircase declares it): what {@link Merge} checks and merges by. */
  public static final String RUN_FILE = "run.json";
  /** Exit statuses: Gatling's own for failed assertions, and the gate's two. */
  public static final int ASSERTIONS_FAILED = 2;
  public static final int REGRESSED = 3;
  public static final int BASELINE_UNUSABLE = 4;

  private static final ObjectMapper JSON = new ObjectMapper();
  /** The settings a page states when they are set. */
  private static final List<String> SETTINGS =
      List.of("gatling.simulationClass", "simulation", "levels", "ramp", "hold", "warmup", "target", "connections", "serviceTime", "baseline", "gate",
          "rate", "rates", "pacing", "pool", "stall");

  private static final List<Assertion> DECLARED = new ArrayList<>();
  private static final List<Level> LEVELS = new ArrayList<>();
  private static final Map<Path, Pending> UNFINISHED = new LinkedHashMap<>();
  private static Map<String, Object> run;

  static {
    Runtime.getRuntime().addShutdownHook(new Thread(RunEnd::finishAtExit, "gatling-rpc-report"));
  }

  private record Pending(RunReport report, int status) {}

  private RunEnd() {}

  static synchronized void declare(List<Assertion> assertions) {
    DECLARED.addAll(assertions);
  }

  /** Declares a level of a staircase by its hold window (epoch ms), for the per-level cut of the page. */
  public static synchronized void level(String label, long fromMillis, long toMillis) {
    LEVELS.add(new Level(label, fromMillis, toMillis));
  }

  /** Declares what part of which load this run is, written as {@value #RUN_FILE} next to the record. */
  public static synchronized void run(Map<String, Object> description) {
    run = new LinkedHashMap<>(description);
  }

  /** Step 1: the record of a run was written into {@code folder}. Reports its own failure, never throws. */
  public static void recorded(Path folder) {
    try {
      report(folder);
    } catch (IOException | RuntimeException e) {
      System.err.println("gatling-rpc: writing " + folder.resolve(PAGE) + " failed: " + e);
    }
  }

  private static void report(Path folder) throws IOException {
    List<Assertion> assertions;
    List<Level> levels;
    Map<String, Object> description;
    synchronized (RunEnd.class) {
      assertions = List.copyOf(DECLARED);
      levels = List.copyOf(LEVELS);
      description = run;
      DECLARED.clear();
      LEVELS.clear();
      run = null;
    }
    if (description != null) {
      description.put("assertions", assertions.stream().map(RpcAssertions::describe).toList());
      JSON.writerWithDefaultPrettyPrinter().writeValue(folder.resolve(RUN_FILE).toFile(), description);
    }
    Outcome outcome = evaluate(RunData.read(folder), assertions, levels, warmup(), settings());
    synchronized (UNFINISHED) {
      UNFINISHED.put(folder.toAbsolutePath().normalize(), new Pending(outcome.report(), outcome.status()));
    }
  }

  /** A report and the status it fails the run with (0 when it does not). */
  record Outcome(RunReport report, int status) {}

  /**
   * Checks the exact assertions and the baseline gate ({@code -Dbaseline}, {@code -Dgate}) on a record,
   * writes rpc-report.html and rpc-assertions.xml into its folder and prints the exact table: for a run as
   * it ends, and for a merge of several injectors' runs.
   */
  static Outcome evaluate(RunData data, List<Assertion> assertions, List<Level> levels, Duration warmup, Map<String, String> settings)
      throws IOException {
    Path folder = data.folder();
    List<AssertionResult> results = check(data, assertions, warmup);
    int status = results.stream().allMatch(AssertionResult::success) ? 0 : ASSERTIONS_FAILED;
    GateResult gate = null;
    String baseline = System.getProperty("baseline", "");
    if (!baseline.isBlank()) {
      try {
        gate = gate(data, Paths.get(baseline), Gate.parse(System.getProperty("gate", "")));
        if (!gate.regressions().isEmpty() && status == 0) {
          status = REGRESSED;
        }
      } catch (IllegalArgumentException e) {
        gate = new GateResult(baseline, Map.of(), Map.of(), List.of(), e.getMessage());
        status = BASELINE_UNUSABLE;
      }
    }
    if (!assertions.isEmpty()) {
      Files.writeString(folder.resolve(ASSERTIONS_XML), junitXml(folder, results));
    }
    RunReport report = new RunReport(data, levels, warmup.toMillis(), results, gate, settings);
    Path page = report.write(Map.of());
    StringBuilder out = new StringBuilder("\n").append(report.consoleTable());
    results.forEach(r -> out.append(r.description()).append(" : ").append(r.success()).append(" (actual : ").append(r.actual()).append(")\n"));
    if (gate != null) {
      gate.regressions().forEach(r -> out.append("REGRESSION ").append(r).append('\n'));
      if (gate.error() != null) {
        out.append("BASELINE UNUSABLE ").append(gate.error()).append('\n');
      } else if (gate.regressions().isEmpty()) {
        out.append("gate against ").append(gate.baseline()).append(": no regression past ").append(gate.thresholds()).append('\n');
      }
    }
    out.append("Exact report (µs record): ").append(page.toUri()).append('\n');
    System.out.print(out);
    return new Outcome(report, status);
  }

  /**
   * Step 2, after Gatling wrote its report (or chose not to): Gatling's figures on the page, the link
   * in index.html. Returns 0, or the status that fails the run ({@link #ASSERTIONS_FAILED},
   * {@link #REGRESSED}, {@link #BASELINE_UNUSABLE}); a folder this JVM did not record returns 0.
   */
  public static int finish(Path folder) {
    Pending pending;
    synchronized (UNFINISHED) {
      pending = UNFINISHED.remove(folder.toAbsolutePath().normalize());
    }
    synchronized (RunEnd.class) {
      DECLARED.clear(); // declared by a run that recorded nothing
      LEVELS.clear();
      run = null;
    }
    if (pending == null) {
      return 0;
    }
    try {
      Map<String, Map<String, Double>> gatling = GatlingFigures.read(folder);
      if (!gatling.isEmpty()) {
        pending.report().write(gatling);
        GatlingLink.add(folder);
        System.out.println("Gatling's report links to the exact one: " + folder.resolve(PAGE).toUri());
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("gatling-rpc: completing " + folder.resolve(PAGE) + " failed: " + e);
    }
    if (pending.status() != 0) {
      System.out.println("gatling-rpc: the run failed: " + switch (pending.status()) {
        case ASSERTIONS_FAILED -> "an exact assertion failed";
        case REGRESSED -> "regressed against the baseline past the gate";
        default -> "the baseline is unreadable or of another run";
      } + " (exit status " + pending.status() + ")");
    }
    return pending.status();
  }

  private static void finishAtExit() {
    List<Path> folders;
    synchronized (UNFINISHED) {
      folders = new ArrayList<>(UNFINISHED.keySet());
    }
    int status = 0;
    for (Path folder : folders) {
      status = Math.max(status, finish(folder));
    }
    if (status != 0) {
      System.out.flush();
      Runtime.getRuntime().halt(status);
    }
  }

  /** {@code -Dwarmup}: left out of the exact assertions and shown apart, for any simulation. */
  static Duration warmup() {
    String text = System.getProperty("warmup");
    return text == null || text.isBlank() ? Duration.ZERO : Durations.parse(text, "-Dwarmup");
  }

  static List<AssertionResult> check(RunData data, List<Assertion> assertions, Duration warmup) {
    List<AssertionResult> results = new ArrayList<>();
    long first = data.firstMillis();
    for (Assertion a : assertions) {
      String name = a.scope().requestName();
      String description = a.describe(warmup);
      if (!RunData.ALL.equals(name) && !data.names().contains(name)) {
        results.add(new AssertionResult(description, false, "no request named '" + name + "'; recorded: " + data.names()));
        continue;
      }
      Duration after = Objects.requireNonNullElse(a.scope().after(), warmup);
      Calls calls = after.isZero() ? data.whole(name) : data.window(name, first + after.toMillis(), Long.MAX_VALUE);
      double actual = a.condition().metric().value().applyAsDouble(calls);
      results.add(new AssertionResult(description, a.condition().holds(actual), a.condition().metric().kind().format(actual)));
    }
    return results;
  }

  /** Compares with a baseline run's record, per request name the two have in common. */
  static GateResult gate(RunData data, Path baseline, Gate gate) {
    Path file = Files.isDirectory(baseline) ? baseline.resolve(LatencyRecord.SUMMARY_FILE) : baseline;
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("-Dbaseline=" + baseline + ": no such file; expected a run folder or its " + LatencyRecord.SUMMARY_FILE);
    }
    JsonNode base;
    try {
      base = JSON.readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException("-Dbaseline=" + baseline + ": unreadable (" + Objects.requireNonNullElse(e.getMessage(), e.toString()).lines().findFirst().orElse("") + ")");
    }
    if (!"microseconds".equals(base.path("unit").asText()) || !base.path("requests").isObject()) {
      throw new IllegalArgumentException("-Dbaseline=" + baseline + ": not a run's " + LatencyRecord.SUMMARY_FILE
          + " (expected \"unit\": \"microseconds\" and \"requests\"; a matrix's results.json is a baseline for the matrix command)");
    }
    Map<String, Map<String, Double>> changes = new LinkedHashMap<>();
    List<String> regressions = new ArrayList<>();
    for (String name : data.names()) {
      JsonNode b = base.path("requests").get(name);
      if (b == null) {
        continue;
      }
      Map<String, Double> now = data.stats(name).gated();
      Map<String, Double> then = Stats.of(b).gated();
      Map<String, Double> change = new LinkedHashMap<>();
      Gate.METRICS.keySet().forEach(metric -> change.put(metric, Gate.change(now, then, metric)));
      changes.put(name, change);
      regressions.addAll(gate.regressions("'" + name + "'", now, then));
    }
    if (changes.isEmpty()) {
      List<String> theirs = new ArrayList<>();
      base.path("requests").fieldNames().forEachRemaining(theirs::add);
      throw new IllegalArgumentException("-Dbaseline=" + baseline + ": the record of another simulation: no request name in common (baseline: " + theirs + ", this run: " + data.names() + ")");
    }
    return new GateResult(baseline.toString(), gate.thresholds(), changes, regressions, null);
  }

  static Map<String, String> settings() {
    Map<String, String> s = new LinkedHashMap<>();
    for (String key : SETTINGS) {
      String value = System.getProperty(key);
      if (value != null && !value.isBlank()) {
        s.put(key, value);
      }
    }
    return s;
  }

  static String junitXml(Path folder, List<AssertionResult> results) {
    long failures = results.stream().filter(r -> !r.success()).count();
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    xml.append(String.format(Locale.ROOT, "<testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"0\">%n",
        escape("gatling-rpc exact assertions: " + folder.getFileName()), results.size(), failures));
    for (AssertionResult r : results) {
      xml.append("  <testcase classname=\"gatling-rpc\" name=\"").append(escape(r.description())).append("\"");
      if (r.success()) {
        xml.append("/>\n");
      } else {
        xml.append(">\n    <failure message=\"").append(escape("actual: " + r.actual())).append("\">")
            .append(escape(r.description() + " : false (actual : " + r.actual() + ")")).append("</failure>\n  </testcase>\n");
      }
    }
    return xml.append("</testsuite>\n").toString();
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
  }
}
