package benchmark.bench;

import benchmark.matrix.Framework;
import benchmark.matrix.Jvms;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import protocols.core.Durations;
import protocols.core.HostAndPort;

/**
 * What every bench command shares: its frameworks, its output folder, one server process per framework
 * (or peer), the tools it runs to the end.
 */
final class Bench {

  /** A measurement against one running server; {@code K} says which (a framework, a peer). */
  @FunctionalInterface
  interface Measurement<K, T> {
    T run(K key, HostAndPort target, Path dir) throws Exception;
  }

  /** What to report when the server did not start. */
  @FunctionalInterface
  interface Failure<K, T> {
    T of(K key, String reason);
  }

  /** Starts a server listening on {@code target}, its output into {@code log}. */
  @FunctionalInterface
  interface ServerStart<K> {
    Process start(K key, HostAndPort target, Path log) throws Exception;
  }

  private Bench() {}

  static List<Framework> frameworks(String defaults) {
    List<Framework> frameworks = new ArrayList<>();
    for (String id : System.getProperty("frameworks", defaults).split(",")) {
      frameworks.add(Framework.byId(id));
    }
    return frameworks;
  }

  /** The project's directory: Maven and the bench scripts run there. */
  static Path project() {
    return Paths.get(System.getProperty("user.dir")).toAbsolutePath();
  }

  /** {@code -Dout}, or bench/results/<kind>-<timestamp>; created. */
  static Path out(String kind) throws java.io.IOException {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    MachineReference.atStart();
    return Files.createDirectories(Paths.get(System.getProperty("out", "bench/results/" + kind + "-" + stamp)));
  }

  /** For each framework: its benchmark server in a JVM of its own, the measurement, the server stopped. */
  static <T> List<T> eachFramework(
      Jvms jvms, List<Framework> frameworks, Path out, String serverHeap, List<String> serverArgs,
      Measurement<Framework, T> measurement, Failure<Framework, T> failure) throws Exception {
    ServerStart<Framework> jvm = (framework, target, log) -> {
      List<String> args = new ArrayList<>(List.of("--port", String.valueOf(target.port())));
      args.addAll(serverArgs);
      return jvms.start(List.of("-Xmx" + serverHeap), framework.serverMainClass(), args, log);
    };
    return eachServer(frameworks, Framework::id, jvm, out, measurement, failure);
  }

  /**
   * For each key: its server started on a free loopback port (output in {@code <out>/<id>/server.log}),
   * the measurement once it listens, the server stopped.
   */
  static <K, T> List<T> eachServer(
      List<K> keys, Function<K, String> id, ServerStart<K> server, Path out,
      Measurement<K, T> measurement, Failure<K, T> failure) throws Exception {
    List<T> rows = new ArrayList<>();
    for (K key : keys) {
      Path dir = Files.createDirectories(out.resolve(id.apply(key)));
      HostAndPort target = new HostAndPort("127.0.0.1", Jvms.freePort());
      Process process = server.start(key, target, dir.resolve("server.log"));
      try {
        String problem = Jvms.awaitListening(process, target, Duration.ofSeconds(90));
        T row = problem == null
            ? measurement.run(key, target, dir)
            : failure.of(key, "server did not start: " + problem + Jvms.tail(dir.resolve("server.log")));
        System.out.println(row);
        rows.add(row);
      } finally {
        Jvms.stop(process);
      }
    }
    return rows;
  }

  /**
   * {@code -Dwarmup} of the benches run against a bare loop, 45 s by default: the JIT went on compiling for
   * about 32 s of a run in the bare gRPC stream loop, 40 s in Gatling's streams and 20 s in Gatling's Thrift
   * at 1000 users; after the 5 s of before, it took a third of a core through the measured window in both
   * JVMs (BENCHMARKS.md, 2026-12-03).
   */
  static Duration steadyWarmup() {
    return Durations.parse(System.getProperty("warmup", "45s"), "-Dwarmup");
  }

  /** The system properties of a closed-loop Gatling run at one level, as the benchmark simulations read them. */
  static List<String> closedLoop(HostAndPort target, int level, String connections, Duration warmup, Duration hold) {
    List<String> options = new java.util.ArrayList<>(List.of("-Dtarget=" + target, "-Dlevels=" + level, "-Dramp=0",
        "-Dwarmup=" + warmup.toMillis() + "ms", "-Dhold=" + hold.toMillis() + "ms", "-Dconnections=" + connections));
    options.addAll(passedSwitches());
    return options;
  }

  /**
   * The protocols' own switches ({@code -Dgatlingrpc.batchStats=false}...), Gatling's settings
   * ({@code -Dgatling.netty.useNativeTransport=false}...) and Netty's ({@code -Dio.netty.eventLoopThreads=2},
   * the size of Gatling's event loop group, 2 × cores by default) given to the bench, passed on to its runs.
   */
  static List<String> passedSwitches() {
    return System.getProperties().stringPropertyNames().stream()
        .filter(name -> name.startsWith("gatlingrpc.") || name.startsWith("gatling.") || name.startsWith("io.netty."))
        .sorted()
        .map(name -> "-D" + name + "=" + System.getProperty(name))
        .toList();
  }

  /** How long a build or a dependency resolution may take. */
  static final Duration BUILD_TIMEOUT = Duration.ofMinutes(5);

  /** Runs {@code command} in {@code dir} to the end (output to {@code log}); {@code what} names it in errors. */
  static void runToEnd(List<String> command, Path dir, Map<String, String> env, Path log, String what)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).redirectOutput(log.toFile());
    builder.environment().putAll(env);
    Process process = builder.start();
    try {
      if (!process.waitFor(BUILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        throw new IllegalStateException(what + " did not finish within " + BUILD_TIMEOUT.toMinutes() + " minutes (log: " + log + ")");
      }
      if (process.exitValue() != 0) {
        throw new IllegalStateException(what + " failed (exit " + process.exitValue() + "):\n" + Files.readString(log));
      }
    } finally {
      process.destroyForcibly();
    }
  }

  /** The executable {@code name} on the PATH, else the first executable of {@code fallbacks}. */
  static Optional<String> onPath(String name, String... fallbacks) {
    List<String> candidates = new ArrayList<>();
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty()) {
        candidates.add(Paths.get(dir, name).toString());
      }
    }
    candidates.addAll(List.of(fallbacks));
    return candidates.stream().filter(candidate -> new File(candidate).canExecute()).findFirst();
  }
}
