package benchmark.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import protocols.core.Durations;
import protocols.core.HostAndPort;
import protocols.core.report.Merge;
import protocols.core.report.RunEnd;

/**
 * The whole benchmark in one command: for each framework, its benchmark server in a JVM of its own; for
 * each level, one Gatling run in another JVM at that constant concurrency, a warm-up first (excluded),
 * then the measured period. Writes {@code results.json} and the comparison report into {@code -Dout}.
 *
 * <pre>mvn test-compile exec:java@matrix -Dlevels=100,500 -Dframeworks=grpc,rpcx</pre>
 *
 * A cell that fails (server down, KOs, crash) is reported with its reason; the matrix goes on and the
 * command exits non-zero.
 */
public final class Matrix {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final MatrixSettings settings;
  private final Jvms jvms;

  Matrix(MatrixSettings settings, Jvms jvms) {
    this.settings = settings;
    this.jvms = jvms;
  }

  public static void main(String[] args) throws Exception {
    MatrixSettings settings;
    try {
      settings = MatrixSettings.from(System.getProperties());
    } catch (IllegalArgumentException e) {
      System.err.println("Invalid setting " + e.getMessage());
      System.exit(2);
      return;
    }
    try {
      System.exit(execute(settings));
    } catch (IllegalArgumentException e) {
      System.err.println("Invalid input " + e.getMessage());
      System.exit(2);
    }
  }

  /** Runs the matrix and writes its report; 0 when every cell passed and nothing regressed. */
  public static int execute(MatrixSettings settings) throws Exception {
    Matrix matrix = new Matrix(settings, new Jvms());
    if (settings.rateMode()) {
      return matrix.rateSteps();
    }
    List<Cell> cells = matrix.run();
    Path results = matrix.writeResults(cells, List.of());
    int regressions = Report.write(results, settings.baseline(), settings.gate());
    long failed = cells.stream().filter(c -> !c.passed()).count();
    System.out.println("Comparison report: " + results.resolveSibling("report.html").toAbsolutePath());
    if (failed > 0) {
      System.err.println(failed + " of " + cells.size() + " cells failed: see the report");
    }
    return failed > 0 || regressions > 0 ? 1 : 0;
  }

  /**
   * Rate steps per framework (the sweep of -Dsaturation, or every rate of -Drates), their curve, and the
   * sweep's knee, in the report; 0 unless a step could not run at all (or, for -Drates, failed).
   */
  private int rateSteps() throws Exception {
    Files.createDirectories(settings.out());
    List<SweepStep> steps = new ArrayList<>();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    for (Framework framework : settings.frameworks()) {
      if (!framework.available(loader)) {
        steps.add(SweepStep.failed(framework.id(), firstRate(), "not available in this build (no " + framework.simulationClass() + ")", null));
        continue;
      }
      onServer(framework, (target, dir) -> steps.addAll(settings.saturation() != null ? sweep(framework, target, dir) : everyRate(framework, target, dir)),
          reason -> steps.add(SweepStep.failed(framework.id(), firstRate(), reason, null)));
    }
    Path results = writeResults(List.of(), steps);
    Report.write(results, null, "");
    System.out.println("Comparison report: " + results.resolveSibling("report.html").toAbsolutePath());
    if (settings.saturation() == null) {
      long failed = steps.stream().filter(s -> !s.sustainable()).count();
      steps.forEach(s -> System.out.println("[" + s.framework() + "] " + s.rate() + " calls/s: "
          + (s.sustainable() ? String.format(java.util.Locale.ROOT, "achieved %.0f, response p99 %.3f ms, service p99 %.3f ms", s.achievedRate(), s.intendedP99() / 1000.0, s.serviceP99() / 1000.0) : s.verdict())));
      if (failed > 0) {
        System.err.println(failed + " of " + steps.size() + " rate steps failed or were not kept: see the report");
      }
      return failed > 0 ? 1 : 0;
    }
    Report.read(results, "results").knees().forEach(k -> System.out.println("[" + k.framework() + "] highest sustainable rate under "
        + settings.saturation().percentile() + " " + Durations.format(settings.saturation().slo()) + ": " + k.sustainableRate() + " calls/s"
        + (k.brokenRate() == null ? " (-DmaxRate reached)" : "; " + k.brokenRate() + " calls/s broke it: " + k.why())));
    long unrun = steps.stream().filter(s -> s.count() == 0).count();
    return unrun > 0 ? 1 : 0;
  }

  /**
   * Rising rates until one is not sustainable, then {@code refine} bisections (geometric means) between
   * the last one kept and the lowest one broken.
   */
  List<SweepStep> sweep(Framework framework, HostAndPort target, Path dir) throws IOException, InterruptedException {
    Saturation s = settings.saturation();
    List<SweepStep> steps = new ArrayList<>();
    SweepStep kept = null;
    SweepStep broken = null;
    for (int rate : s.rates()) {
      SweepStep step = runStep(framework, rate, target, dir);
      steps.add(step);
      if (!step.sustainable()) {
        broken = step;
        break;
      }
      kept = step;
    }
    for (int i = 0; i < s.refine() && kept != null && broken != null; i++) {
      int rate = (int) Math.round(Math.sqrt((double) kept.rate() * broken.rate()));
      if (rate <= kept.rate() || rate >= broken.rate()) {
        break;
      }
      SweepStep step = runStep(framework, rate, target, dir);
      steps.add(step);
      if (step.sustainable()) {
        kept = step;
      } else {
        broken = step;
      }
    }
    return steps;
  }

  private int firstRate() {
    return settings.saturation() != null ? settings.saturation().startRate() : settings.rates().get(0);
  }

  /** -Drates: every rate, whatever the one before did (a table of figures, not a search). */
  private List<SweepStep> everyRate(Framework framework, HostAndPort target, Path dir) throws IOException, InterruptedException {
    List<SweepStep> steps = new ArrayList<>();
    for (int rate : settings.rates()) {
      steps.add(runStep(framework, rate, target, dir));
    }
    return steps;
  }

  private SweepStep runStep(Framework framework, int rate, HostAndPort target, Path parent) throws IOException, InterruptedException {
    Path dir = parent.resolve(rate + "-per-s");
    Files.createDirectories(dir);
    Path log = dir.resolve("gatling.log");
    System.out.println("[" + framework.label() + "] " + rate + " calls/s against " + target);
    List<String> properties = new ArrayList<>(List.of(
        "-Dtarget=" + target, "-Drate=" + rate, "-Dramp=0",
        "-Dwarmup=" + settings.warmup().toMillis() + "ms", "-Dhold=" + settings.hold().toMillis() + "ms"));
    if (settings.connections() != null) {
      properties.add("-Dconnections=" + settings.connections());
    }
    properties.addAll(settings.rateOptions());
    Path run;
    int exit;
    if (settings.injectors() > 1) {
      Merged merged = runInjectors(framework, properties, dir);
      if (merged.failure() != null) {
        return SweepStep.failed(framework.id(), rate, merged.failure(), null);
      }
      run = merged.folder();
      exit = merged.exit();
      log = dir.resolve("injector-0.log");
    } else {
      Process gatling = jvms.startGatling(settings.heap(), properties, framework.simulationClass(), dir, log);
      Duration limit = settings.warmup().plus(settings.hold()).plusSeconds(180);
      if (!Jvms.await(gatling, limit)) {
        return SweepStep.failed(framework.id(), rate, "did not finish within " + limit.toSeconds() + " s" + Jvms.tail(log), null);
      }
      run = GatlingResults.newestRun(dir);
      exit = gatling.exitValue();
    }
    String report = run == null ? null : settings.out().relativize(run.resolve(RunEnd.PAGE)).toString();
    JsonNode say = GatlingResults.measured(run);
    if (say == null || !say.has("intended")) {
      return SweepStep.failed(framework.id(), rate, "no measured calls (exit code " + exit + ")" + Jvms.tail(log), report);
    }
    long ko = say.get("ko").asLong();
    // a step's KOs (timeouts past the knee) are a verdict, not a crash: its figures still draw the curve
    String reason = ko > 0 ? ko + " KO; most frequent: " + mostFrequentError(say.path("errors")) : null;
    JsonNode intended = say.get("intended");
    SweepStep step = new SweepStep(framework.id(), rate, ko > 0 ? Cell.FAILED : Cell.OK, reason, report,
        say.get("count").asLong(), ko, say.path("late").asLong(), say.path("achievedRate").asDouble(),
        say.get("p50").asLong(), say.get("p99").asLong(),
        intended.get("p50").asLong(), intended.get("p90").asLong(), intended.get("p99").asLong(), intended.get("p999").asLong(),
        false, null);
    step = step.judged(settings.saturation() != null ? settings.saturation().broken(step) : Saturation.unkept(step));
    System.out.println("[" + framework.label() + "] " + rate + " calls/s: " + (step.sustainable() ? "sustainable" : step.verdict()));
    return step;
  }

  @FunctionalInterface
  private interface OnServer {
    void run(HostAndPort target, Path dir) throws IOException, InterruptedException;
  }

  /** The framework's server (its own JVM, or -Dtarget.<id>) for {@code measure}; {@code failed} gets why it did not start. */
  private void onServer(Framework framework, OnServer measure, java.util.function.Consumer<String> failed)
      throws IOException, InterruptedException {
    Path dir = settings.out().resolve(framework.id());
    Files.createDirectories(dir);
    HostAndPort remote = settings.targets().get(framework.id());
    Process server = null;
    HostAndPort target = remote;
    try {
      if (remote == null) {
        int port = Jvms.freePort();
        Path log = dir.resolve("server.log");
        System.out.println("[" + framework.label() + "] starting " + framework.serverMainClass() + " on 127.0.0.1:" + port);
        List<String> args =
            new ArrayList<>(List.of("--port", String.valueOf(port), "--service-time", settings.serviceTime().toMillis() + "ms"));
        if (!settings.stall().none()) {
          args.addAll(List.of("--stall", settings.stall().toString()));
        }
        args.addAll(settings.serverArgs().get(framework.id()));
        server = jvms.start(List.of("-Xmx2g"), framework.serverMainClass(), args, log);
        target = new HostAndPort("127.0.0.1", port);
        String problem = Jvms.awaitListening(server, target, Duration.ofSeconds(90));
        if (problem != null) {
          failed.accept("server did not start: " + problem + Jvms.tail(log));
          return;
        }
      }
      measure.run(target, dir);
    } finally {
      Jvms.stop(server);
    }
  }

  List<Cell> run() throws IOException, InterruptedException {
    Files.createDirectories(settings.out());
    List<Cell> cells = new ArrayList<>();
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    for (Framework framework : settings.frameworks()) {
      if (!framework.available(loader)) {
        for (int level : settings.levels()) {
          cells.add(Cell.failed(framework.id(), level, "not available in this build (no " + framework.simulationClass() + ")", null));
        }
        continue;
      }
      cells.addAll(runFramework(framework));
    }
    return cells;
  }

  private List<Cell> runFramework(Framework framework) throws IOException, InterruptedException {
    List<Cell> cells = new ArrayList<>();
    onServer(framework,
        (target, dir) -> {
          for (int level : settings.levels()) {
            cells.add(runCell(framework, level, target, dir.resolve(String.valueOf(level))));
          }
        },
        reason -> settings.levels().forEach(level -> cells.add(Cell.failed(framework.id(), level, reason, null))));
    return cells;
  }

  private Cell runCell(Framework framework, int level, HostAndPort target, Path dir)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path log = dir.resolve("gatling.log");
    System.out.println("[" + framework.label() + "] " + level + " concurrent users against " + target);
    if (settings.injectors() > 1) {
      Merged merged = runInjectors(framework, properties(target, level), dir);
      return merged.failure() != null ? Cell.failed(framework.id(), level, merged.failure(), null)
          : cell(framework, level, merged.folder(), merged.exit(), dir.resolve("injector-0.log"));
    }
    Process gatling =
        jvms.startGatling(
            settings.heap(),
            properties(target, level),
            framework.simulationClass(), dir, log);
    Duration limit = settings.warmup().plus(settings.hold()).plusSeconds(180);
    if (!Jvms.await(gatling, limit)) {
      return Cell.failed(framework.id(), level, "did not finish within " + limit.toSeconds() + " s" + Jvms.tail(log), null);
    }
    return cell(framework, level, GatlingResults.newestRun(dir), gatling.exitValue(), log);
  }

  /** The merged run of {@code -Dinjectors} JVMs and the worst exit status, or why there is none. */
  private record Merged(Path folder, int exit, String failure) {
    static Merged failed(String why) {
      return new Merged(null, 0, why);
    }
  }

  /** A cell or a rate step run by {@code -Dinjectors} JVMs, each its share, from one instant; their records merged. */
  private Merged runInjectors(Framework framework, List<String> cellProperties, Path dir)
      throws IOException, InterruptedException {
    int n = settings.injectors();
    Instant startAt = Instant.now().plus(settings.startDelay());
    List<Process> injectors = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      List<String> properties = new ArrayList<>(cellProperties);
      properties.addAll(List.of("-Dinjectors=" + n, "-Dinjector=" + i, "-DstartAt=" + startAt));
      Path results = dir.resolve("injector-" + i);
      Files.createDirectories(results);
      injectors.add(jvms.startGatling(settings.heap(), properties, framework.simulationClass(), results, dir.resolve("injector-" + i + ".log")));
    }
    Duration limit = settings.startDelay().plus(settings.warmup()).plus(settings.hold()).plusSeconds(180);
    int exit = 0;
    List<String> runs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Path log = dir.resolve("injector-" + i + ".log");
      if (!Jvms.await(injectors.get(i), limit)) {
        injectors.forEach(Process::destroyForcibly);
        return Merged.failed("injector " + i + " did not finish within " + limit.toSeconds() + " s" + Jvms.tail(log));
      }
      exit = Math.max(exit, injectors.get(i).exitValue());
      Path run = GatlingResults.newestRun(dir.resolve("injector-" + i));
      if (run == null) {
        return Merged.failed("injector " + i + " left no run (exit code " + injectors.get(i).exitValue() + ")" + settingRefused(log));
      }
      runs.add(run.toString());
    }
    Path merged = dir.resolve("merged");
    Properties merge = new Properties();
    merge.setProperty("runs", String.join(",", runs));
    merge.setProperty("out", merged.toString());
    try {
      exit = Math.max(exit, Merge.execute(merge, System.out));
    } catch (IllegalArgumentException e) {
      return Merged.failed("merge refused: " + e.getMessage());
    }
    return new Merged(merged, exit, null);
  }

  /** ": <the one line>" when the injector refused a setting (a -DstartAt already past, say), else the log's tail. */
  private static String settingRefused(Path log) {
    try (var lines = Files.lines(log)) {
      return lines.filter(l -> l.startsWith("java.lang.IllegalArgumentException: "))
          .map(l -> ": " + l.substring("java.lang.IllegalArgumentException: ".length()))
          .findFirst()
          .orElseGet(() -> Jvms.tail(log));
    } catch (IOException | java.io.UncheckedIOException e) {
      return Jvms.tail(log);
    }
  }

  private Cell cell(Framework framework, int level, Path run, int exitValue, Path log) {
    Path page = run == null ? null : Files.exists(run.resolve("index.html")) ? run.resolve("index.html") : run.resolve(RunEnd.PAGE);
    String report = page != null && Files.exists(page) ? settings.out().relativize(page).toString() : null;
    JsonNode say = GatlingResults.measured(run);
    if (say == null) {
      return Cell.failed(framework.id(), level, "no measured calls (exit code " + exitValue + ")" + Jvms.tail(log), report);
    }
    long ko = say.get("ko").asLong();
    String status = exitValue == 0 && ko == 0 ? Cell.OK : Cell.FAILED;
    String reason = null;
    if (ko > 0) {
      reason = ko + " KO; most frequent: " + mostFrequentError(say.path("errors"));
    } else if (exitValue != 0) {
      reason = "Gatling exited with code " + exitValue + Jvms.tail(log);
    }
    return new Cell(
        framework.id(), level, status, reason, report,
        say.get("count").asLong(), say.get("ok").asLong(), ko, say.get("throughput").asDouble(),
        say.get("min").asLong(), say.get("mean").asDouble(), say.get("p50").asLong(), say.get("p90").asLong(),
        say.get("p99").asLong(), say.get("p999").asLong(), say.get("max").asLong());
  }

  private List<String> properties(HostAndPort target, int level) {
    List<String> properties =
        new ArrayList<>(
            List.of(
                "-Dtarget=" + target, "-Dlevels=" + level, "-Dramp=0",
                "-Dwarmup=" + settings.warmup().toMillis() + "ms", "-Dhold=" + settings.hold().toMillis() + "ms"));
    if (settings.connections() != null) {
      properties.add("-Dconnections=" + settings.connections());
    }
    return properties;
  }

  Path writeResults(List<Cell> cells, List<SweepStep> sweep) throws IOException {
    Path results = settings.out().resolve("results.json");
    List<Knee> knees = settings.saturation() == null ? List.of() : sweep.stream().map(SweepStep::framework).distinct()
        .map(f -> Knee.of(f, sweep, settings.saturation().percentile())).toList();
    Results document = new Results(Results.FORMAT, Instant.now().toString(), settings.describe(), Results.describeMachine(),
        Results.libraryVersions(jvms.classpath()), cells, sweep, knees);
    JSON.writerWithDefaultPrettyPrinter().writeValue(results.toFile(), document);
    return results;
  }

  private static String mostFrequentError(JsonNode errors) {
    String best = "(no message)";
    long most = -1;
    for (var it = errors.fields(); it.hasNext(); ) {
      var e = it.next();
      if (e.getValue().asLong() > most) {
        most = e.getValue().asLong();
        best = e.getKey();
      }
    }
    return best;
  }

}
