package benchmark.bench;

import benchmark.matrix.Framework;
import benchmark.matrix.Jvms;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import protocols.core.HostAndPort;

/** What every bench command shares: its frameworks, its output folder, one server JVM per framework. */
final class Bench {

  /** A measurement against one framework's running server. */
  @FunctionalInterface
  interface Measurement<T> {
    T run(Framework framework, HostAndPort target, Path dir) throws Exception;
  }

  /** What to report for a framework whose server did not start. */
  @FunctionalInterface
  interface Failure<T> {
    T of(Framework framework, String reason);
  }

  private Bench() {}

  static List<Framework> frameworks(String defaults) {
    List<Framework> frameworks = new ArrayList<>();
    for (String id : System.getProperty("frameworks", defaults).split(",")) {
      frameworks.add(Framework.byId(id));
    }
    return frameworks;
  }

  /** {@code -Dout}, or bench/results/<kind>-<timestamp>; created. */
  static Path out(String kind) throws java.io.IOException {
    String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"));
    return Files.createDirectories(Paths.get(System.getProperty("out", "bench/results/" + kind + "-" + stamp)));
  }

  /** For each framework: its benchmark server in a JVM of its own, the measurement, the server stopped. */
  static <T> List<T> eachFramework(
      Jvms jvms, List<Framework> frameworks, Path out, String serverHeap, List<String> serverArgs,
      Measurement<T> measurement, Failure<T> failure) throws Exception {
    List<T> rows = new ArrayList<>();
    for (Framework framework : frameworks) {
      Path dir = Files.createDirectories(out.resolve(framework.id()));
      int port = Jvms.freePort();
      HostAndPort target = new HostAndPort("127.0.0.1", port);
      List<String> args = new ArrayList<>(List.of("--port", String.valueOf(port)));
      args.addAll(serverArgs);
      Process server = jvms.start(List.of("-Xmx" + serverHeap), framework.serverMainClass(), args, dir.resolve("server.log"));
      try {
        String problem = Jvms.awaitListening(server, target, Duration.ofSeconds(90));
        T row = problem == null
            ? measurement.run(framework, target, dir)
            : failure.of(framework, "server did not start: " + problem + Jvms.tail(dir.resolve("server.log")));
        System.out.println(row);
        rows.add(row);
      } finally {
        Jvms.stop(server);
      }
    }
    return rows;
  }
}
