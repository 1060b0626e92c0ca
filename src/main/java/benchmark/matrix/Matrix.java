package benchmark.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import protocols.core.HostAndPort;
import protocols.core.LatencyRecord;

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
  private final String classpath;
  private final String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();

  Matrix(MatrixSettings settings, String classpath) {
    this.settings = settings;
    this.classpath = classpath;
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
    Matrix matrix = new Matrix(settings, classpath());
    List<Cell> cells = matrix.run();
    Path results = matrix.writeResults(cells);
    int regressions = Report.write(results, settings.baseline(), settings.gate());
    long failed = cells.stream().filter(c -> !c.passed()).count();
    System.out.println("Comparison report: " + results.resolveSibling("report.html").toAbsolutePath());
    if (failed > 0) {
      System.err.println(failed + " of " + cells.size() + " cells failed: see the report");
    }
    return failed > 0 || regressions > 0 ? 1 : 0;
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
    Path dir = settings.out().resolve(framework.id());
    Files.createDirectories(dir);
    HostAndPort remote = settings.targets().get(framework.id());
    Process server = null;
    HostAndPort target = remote;
    List<Cell> cells = new ArrayList<>();
    try {
      if (remote == null) {
        int port = freePort();
        Path log = dir.resolve("server.log");
        System.out.println("[" + framework.label() + "] starting " + framework.serverMainClass() + " on 127.0.0.1:" + port);
        List<String> command =
            new ArrayList<>(
                List.of(
                    java, "-Xmx2g", "-cp", classpath, framework.serverMainClass(),
                    "--port", String.valueOf(port), "--service-time", settings.serviceTime().toMillis() + "ms"));
        command.addAll(settings.serverArgs().get(framework.id()));
        server =
            new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        target = new HostAndPort("127.0.0.1", port);
        String problem = awaitListening(server, target, Duration.ofSeconds(90));
        if (problem != null) {
          String reason = "server did not start: " + problem + tail(log);
          settings.levels().forEach(level -> cells.add(Cell.failed(framework.id(), level, reason, null)));
          return cells;
        }
      }
      for (int level : settings.levels()) {
        cells.add(runCell(framework, level, target, dir.resolve(String.valueOf(level))));
      }
      return cells;
    } finally {
      if (server != null) {
        server.destroy();
        if (!server.waitFor(10, TimeUnit.SECONDS)) {
          server.destroyForcibly();
        }
      }
    }
  }

  private Cell runCell(Framework framework, int level, HostAndPort target, Path dir)
      throws IOException, InterruptedException {
    Files.createDirectories(dir);
    Path log = dir.resolve("gatling.log");
    System.out.println("[" + framework.label() + "] " + level + " concurrent users against " + target);
    List<String> command =
        List.of(
            java, "-Xmx" + settings.heap(), "--add-opens=java.base/java.lang=ALL-UNNAMED", "-cp", classpath,
            "-Dtarget=" + target, "-Dlevels=" + level, "-Dramp=0",
            "-Dwarmup=" + settings.warmup().toMillis() + "ms", "-Dhold=" + settings.hold().toMillis() + "ms",
            "-Dconnections=" + settings.connections(),
            "io.gatling.app.Gatling", "--simulation", framework.simulationClass(),
            "--results-folder", dir.toAbsolutePath().toString());
    Process gatling = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    Duration limit = settings.warmup().plus(settings.hold()).plusSeconds(180);
    if (!gatling.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
      gatling.destroyForcibly().waitFor();
      return Cell.failed(framework.id(), level, "did not finish within " + limit.toSeconds() + " s" + tail(log), null);
    }
    Path run = newestRun(dir);
    String report = run != null && Files.exists(run.resolve("index.html")) ? settings.out().relativize(run.resolve("index.html")).toString() : null;
    JsonNode record = run == null ? null : readRecord(run);
    JsonNode say = record == null ? null : record.path("requests").get("Say");
    if (say == null) {
      return Cell.failed(framework.id(), level, "no measured calls (exit code " + gatling.exitValue() + ")" + tail(log), report);
    }
    long ko = say.get("ko").asLong();
    String status = gatling.exitValue() == 0 && ko == 0 ? Cell.OK : Cell.FAILED;
    String reason = null;
    if (ko > 0) {
      reason = ko + " KO; most frequent: " + mostFrequentError(say.path("errors"));
    } else if (gatling.exitValue() != 0) {
      reason = "Gatling exited with code " + gatling.exitValue() + tail(log);
    }
    return new Cell(
        framework.id(), level, status, reason, report,
        say.get("count").asLong(), say.get("ok").asLong(), ko, say.get("throughput").asDouble(),
        say.get("min").asLong(), say.get("mean").asDouble(), say.get("p50").asLong(), say.get("p90").asLong(),
        say.get("p99").asLong(), say.get("p999").asLong(), say.get("max").asLong());
  }

  Path writeResults(List<Cell> cells) throws IOException {
    Path results = settings.out().resolve("results.json");
    Results document = new Results(Results.FORMAT, Instant.now().toString(), settings.describe(), Results.describeMachine(), Results.libraryVersions(classpath), cells);
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

  private static JsonNode readRecord(Path run) {
    try {
      Path summary = run.resolve(LatencyRecord.SUMMARY_FILE);
      return Files.exists(summary) ? JSON.readTree(summary.toFile()) : null;
    } catch (IOException e) {
      return null;
    }
  }

  private static Path newestRun(Path dir) throws IOException {
    try (Stream<Path> runs = Files.list(dir)) {
      return runs.filter(Files::isDirectory).max(Comparator.comparingLong(p -> p.toFile().lastModified())).orElse(null);
    }
  }

  /** Null once the server accepts connections, or why it never did. */
  private static String awaitListening(Process server, HostAndPort target, Duration limit)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      if (!server.isAlive()) {
        return "it exited with code " + server.exitValue();
      }
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(target.host(), target.port()), 500);
        return null;
      } catch (IOException notYet) {
        Thread.sleep(200);
      }
    }
    return "nothing listened on " + target + " after " + limit.toSeconds() + " s";
  }

  private static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      String last =
          lines.stream()
              .skip(Math.max(0, lines.size() - 5))
              .map(String::strip)
              .filter(l -> !l.isEmpty())
              .collect(Collectors.joining(" | "));
      return last.isEmpty() ? "" : " (last output: " + last + ")";
    } catch (IOException e) {
      return "";
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** The classpath for the child JVMs: exec:java's class loader, or this JVM's own. */
  static String classpath() throws URISyntaxException {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader instanceof URLClassLoader urls && urls.getURLs().length > 0) {
      List<String> entries = new ArrayList<>();
      for (URL url : urls.getURLs()) {
        entries.add(new File(url.toURI()).getPath());
      }
      return String.join(File.pathSeparator, entries);
    }
    return System.getProperty("java.class.path");
  }
}
