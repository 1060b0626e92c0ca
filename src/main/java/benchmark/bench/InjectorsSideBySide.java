package benchmark.bench;

import benchmark.matrix.Framework;
import benchmark.matrix.Jvms;
import benchmark.matrix.Matrix;
import benchmark.matrix.MatrixSettings;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import protocols.core.HostAndPort;

/**
 * One load run by one injector JVM beside the same load split over {@code -Dinjectors} JVMs started at
 * one instant and merged exactly ({@code exec:java@merge}), against the same server, alternating
 * {@code -Dpairs} times: the merged run's calls, rate and percentiles next to the lone injector's.
 * On a 2-core machine the point is that the merge is right, not that N injectors go faster.
 *
 * <pre>bench/injectors.sh -Dframeworks=grpc -Dlevel=100 -Dinjectors=2 -Dhold=10s</pre>
 */
public final class InjectorsSideBySide {

  private static final ObjectMapper JSON = new ObjectMapper();

  public record Row(String framework, int pair, int injectors, String status, long count, long ko, double throughput,
      long p50, long p99, long p999, String reason) {}

  public static void main(String[] args) throws Exception {
    execute();
    System.exit(0);
  }

  /** Runs the measurement; returns the folder of its results. */
  public static Path execute() throws Exception {
    List<Framework> frameworks = Bench.frameworks("grpc");
    int injectors = Integer.parseInt(System.getProperty("injectors", "2").trim());
    if (injectors < 2) {
      throw new IllegalArgumentException("-Dinjectors=" + injectors + ": expected 2 or more injector JVMs, to run beside one");
    }
    int pairs = Integer.parseInt(System.getProperty("pairs", "1").trim());
    Path out = Bench.out("injectors");
    Jvms jvms = new Jvms();
    List<Row> rows = new ArrayList<>();
    Bench.eachFramework(jvms, frameworks, out, "2g", List.of(),
        (framework, target, dir) -> {
          for (int pair = 1; pair <= pairs; pair++) {
            for (int n : List.of(1, injectors)) {
              rows.add(run(framework, target, dir.resolve("pair-" + pair + "-injectors-" + n), pair, n));
            }
          }
          return framework.id() + " measured";
        },
        (framework, reason) -> {
          rows.add(new Row(framework.id(), 0, 0, "failed", 0, 0, 0, 0, 0, 0, reason));
          return reason;
        });
    JSON.writerWithDefaultPrettyPrinter().writeValue(out.resolve("injectors.json").toFile(), rows);
    Files.writeString(out.resolve("injectors.md"), markdown(rows) + "\n" + MachineReference.line() + "\n");
    System.out.println(Files.readString(out.resolve("injectors.md")));
    return out;
  }

  /** One matrix cell against the running server, by {@code n} injector JVMs (merged when more than one). */
  private static Row run(Framework framework, HostAndPort target, Path dir, int pair, int n) throws Exception {
    Properties p = new Properties();
    p.setProperty("frameworks", framework.id());
    p.setProperty("target." + framework.id(), target.toString());
    p.setProperty("levels", System.getProperty("level", "100"));
    p.setProperty("warmup", System.getProperty("warmup", "5s"));
    p.setProperty("hold", System.getProperty("hold", "15s"));
    p.setProperty("injectors", String.valueOf(n));
    p.setProperty("startDelay", System.getProperty("startDelay", "30s"));
    if (System.getProperty("connections") != null) {
      p.setProperty("connections", System.getProperty("connections"));
    }
    p.setProperty("out", dir.toString());
    Matrix.execute(MatrixSettings.from(p));
    JsonNode cell = JSON.readTree(dir.resolve("results.json").toFile()).path("cells").path(0);
    return new Row(framework.id(), pair, n, cell.path("status").asText(), cell.path("count").asLong(), cell.path("ko").asLong(),
        cell.path("throughput").asDouble(), cell.path("p50").asLong(), cell.path("p99").asLong(), cell.path("p999").asLong(),
        cell.path("reason").isNull() ? null : cell.path("reason").asText());
  }

  static String markdown(List<Row> rows) {
    StringBuilder md = new StringBuilder(String.format(Locale.ROOT,
        "Closed model, level %s users, warm-up %s excluded, %s measured, server in its own JVM; one injector JVM,"
            + " then the same load split over several started at one instant, their records merged; %d cores.%n%n"
            + "| framework | pair | injectors | status | calls | KO | calls/s | p50 µs | p99 µs | p99.9 µs |%n|---|---|---|---|---|---|---|---|---|---|%n",
        System.getProperty("level", "100"), System.getProperty("warmup", "5s"), System.getProperty("hold", "15s"),
        Runtime.getRuntime().availableProcessors()));
    for (Row r : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %d | %d | %.0f | %d | %d | %d |%s%n", r.framework(), r.pair(), r.injectors(),
          r.status(), r.count(), r.ko(), r.throughput(), r.p50(), r.p99(), r.p999(), r.reason() == null ? "" : " " + r.reason()));
    }
    return md.toString();
  }
}
