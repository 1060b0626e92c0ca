package benchmark.bench;

import benchmark.matrix.Framework;
import benchmark.matrix.GatlingResults;
import benchmark.matrix.Jvms;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import protocols.core.Durations;
import protocols.core.HostAndPort;

/**
 * gRPC calls without stubs (GrpcWithoutStubsSimulation: the method by name, JSON request, jsonPath
 * check) against generated stubs (GrpcSimulation) and against ghz, on one benchmark server JVM, with
 * the same users, connections and durations; the three alternate (stubs, stub-free, ghz; stubs, ...)
 * so that the machine's load disturbs each side alike.
 *
 * <pre>mvn test-compile exec:java@stubfree -Dlevel=100 -Dconnections=4 -Dpairs=3 -Dwarmup=45s -Dhold=20s</pre>
 *
 * Writes {@code stubfree.md} and {@code stubfree.json} into {@code -Dout} (default bench/results/stubfree-<stamp>).
 */
public final class StubFree {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One round: calls/s of each side, the two ratios, CPU per call (µs of the injector's process) of the Gatling runs. */
  public record Round(
      int round, double stubsThroughput, double stubFreeThroughput, double ghzThroughput, double stubFreeOverStubs,
      double stubFreeOverGhz, double stubsCpuPerCall, double stubFreeCpuPerCall, long stubsP50, long stubFreeP50, String problem) {}

  public static void main(String[] args) throws Exception {
    execute();
    System.exit(0);
  }

  public static Path execute() throws Exception {
    int level = Integer.parseInt(System.getProperty("level", "100").trim());
    int connections = Integer.parseInt(System.getProperty("connections", "4").trim());
    int rounds = Integer.parseInt(System.getProperty("pairs", "3").trim());
    boolean ghz = Boolean.parseBoolean(System.getProperty("ghz", "true"));
    Duration warmup = Duration.ofSeconds(Bench.steadyWarmup().toSeconds());
    Duration hold = Duration.ofSeconds(Durations.parse(System.getProperty("hold", "20s"), "-Dhold").toSeconds());
    if (level < connections || rounds < 1 || hold.isZero()) {
      throw new IllegalArgumentException("expected -Dlevel >= -Dconnections, -Dpairs >= 1 and -Dhold of a second or more, got "
          + level + ", " + connections + ", " + rounds + ", " + hold);
    }
    Path out = Bench.out("stubfree");
    Jvms jvms = new Jvms();
    Peers.Load load = new Peers.Load(level, connections, warmup, hold);
    Peers.Client ghzClient = ghz ? Peers.Peer.GHZ.prepare(Files.createDirectories(Bench.project().resolve("target/tools"))) : null;
    List<Round> done = new ArrayList<>();
    // -Dprofile=true: one line per Gatling run, where its CPU samples fall (Profiles)
    List<String> profiles = new ArrayList<>();
    Bench.eachFramework(jvms, List.of(Framework.byId("grpc")), out, "2g", List.of(),
        (framework, target, dir) -> {
          for (int i = 1; i <= rounds; i++) {
            done.add(round(jvms, i, target, load, ghzClient, dir.resolve("round-" + i), profiles));
          }
          return "stub-free measured";
        },
        (framework, reason) -> {
          done.add(new Round(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, reason));
          return reason;
        });
    JSON.writerWithDefaultPrettyPrinter().writeValue(out.resolve("stubfree.json").toFile(), done);
    StringBuilder steps = new StringBuilder();
    if (Profiles.enabled()) {
      // each side's rounds together: more samples rank the small steps better
      for (String side : List.of("stubs", "stub-free")) {
        List<Path> jfrs = new ArrayList<>();
        for (int i = 1; i <= rounds; i++) {
          jfrs.add(out.resolve("grpc/round-" + i + "/" + side + "/gatling.jfr"));
        }
        steps.append('\n').append(Profiles.steps(side + ", the steps of a call", jfrs, Profiles.GRPC_CALL_STEPS));
      }
    }
    Files.writeString(out.resolve("stubfree.md"), markdown(done, load, ghz)
        + (profiles.isEmpty() ? "" : "\nCPU samples of the Gatling runs:\n\n" + String.join("\n", profiles) + "\n") + steps + "\n" + MachineReference.line() + "\n");
    System.out.println(Files.readString(out.resolve("stubfree.md")));
    return out;
  }

  private static Round round(Jvms jvms, int i, HostAndPort target, Peers.Load load, Peers.Client ghz, Path dir, List<String> profiles)
      throws Exception {
    Files.createDirectories(dir);
    List<String> problems = new ArrayList<>();
    JsonNode stubs = gatling(jvms, "simulations.GrpcSimulation", target, load, dir.resolve("stubs"), problems, profiles);
    JsonNode stubFree = gatling(jvms, "simulations.GrpcWithoutStubsSimulation", target, load, dir.resolve("stub-free"), problems, profiles);
    double ghzThroughput = 0;
    if (ghz != null) {
      try {
        ghzThroughput = Peers.Peer.GHZ.measure(ghz, jvms, target, load, Files.createDirectories(dir.resolve("ghz"))).throughput();
      } catch (Peers.PeerFailure e) {
        problems.add(e.getMessage());
        ghzThroughput = e.figures == null ? 0 : e.figures.throughput();
      }
    }
    double st = value(stubs, "throughput");
    double ft = value(stubFree, "throughput");
    return new Round(i, st, ft, ghzThroughput, st > 0 ? ft / st : 0, ghzThroughput > 0 ? ft / ghzThroughput : 0,
        value(stubs, "cpuPerCall"), value(stubFree, "cpuPerCall"), (long) value(stubs, "p50"), (long) value(stubFree, "p50"),
        problems.isEmpty() ? null : String.join("; ", problems));
  }

  private static JsonNode gatling(
      Jvms jvms, String simulation, HostAndPort target, Peers.Load load, Path dir, List<String> problems, List<String> profiles)
      throws Exception {
    Files.createDirectories(dir);
    List<String> options = new ArrayList<>(Bench.closedLoop(target, load.users(), String.valueOf(load.connections()), load.warmup(), load.hold()));
    options.addAll(Profiles.jvmOptions(dir.resolve("gatling.jfr"), load.warmup()));
    Jvms.await(jvms.startGatling("2g", options, simulation, dir, dir.resolve("gatling.log")), load.limit());
    if (Profiles.enabled()) {
      profiles.add(Profiles.summary(dir.getParent().getFileName() + ", " + simulation, dir.resolve("gatling.jfr")));
    }
    JsonNode figures = GatlingResults.measured(GatlingResults.newestRun(dir));
    if (figures == null) {
      problems.add(simulation + " wrote no record" + Jvms.tail(dir.resolve("gatling.log")));
    } else if (figures.path("ko").asLong() > 0) {
      problems.add(simulation + ": KO: " + figures.path("ko").asLong() + " calls failed");
    }
    return figures;
  }

  private static double value(JsonNode figures, String field) {
    return figures == null ? 0 : figures.path(field).asDouble();
  }

  static String markdown(List<Round> rounds, Peers.Load load, boolean ghz) {
    StringBuilder md = new StringBuilder();
    md.append(String.format(Locale.ROOT,
        "Closed loop, %d users, %d shared connections, warm-up %s excluded, %s measured, one gRPC benchmark server JVM; in each"
            + " round Gatling with stubs, Gatling without stubs, then ghz; %d cores, load average %s at the end.%n%n",
        load.users(), load.connections(), Durations.format(load.warmup()), Durations.format(load.hold()),
        Runtime.getRuntime().availableProcessors(), loadAverage()));
    md.append("| round | stubs calls/s | stub-free calls/s | ghz calls/s | stub-free / stubs | stub-free / ghz | stubs CPU µs/call | stub-free CPU µs/call | stubs p50 µs | stub-free p50 µs |\n");
    md.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (Round r : rounds) {
      md.append(String.format(Locale.ROOT, "| %d | %.0f | %.0f | %.0f | %.2f | %.2f | %.1f | %.1f | %d | %d |%s%n",
          r.round(), r.stubsThroughput(), r.stubFreeThroughput(), r.ghzThroughput(), r.stubFreeOverStubs(), r.stubFreeOverGhz(),
          r.stubsCpuPerCall(), r.stubFreeCpuPerCall(), r.stubsP50(), r.stubFreeP50(), r.problem() == null ? "" : " " + r.problem()));
    }
    md.append(String.format(Locale.ROOT, "%nstub-free / stubs: median **%s** (%s); stub-free CPU per call / stubs: median %s.%n",
        median(rounds, Round::stubFreeOverStubs), spread(rounds, Round::stubFreeOverStubs),
        median(rounds, r -> r.stubsCpuPerCall() > 0 ? r.stubFreeCpuPerCall() / r.stubsCpuPerCall() : 0)));
    if (ghz) {
      md.append(String.format(Locale.ROOT, "stub-free / ghz: median **%s** (%s).%n",
          median(rounds, Round::stubFreeOverGhz), spread(rounds, Round::stubFreeOverGhz)));
    }
    return md.toString();
  }

  private static String median(List<Round> rounds, ToDoubleFunction<Round> value) {
    double[] values = rounds.stream().mapToDouble(value).sorted().toArray();
    if (values.length == 0) {
      return "-";
    }
    double median = values.length % 2 == 1 ? values[values.length / 2] : (values[values.length / 2 - 1] + values[values.length / 2]) / 2;
    return String.format(Locale.ROOT, "%.2f", median);
  }

  private static String spread(List<Round> rounds, ToDoubleFunction<Round> value) {
    double[] values = rounds.stream().mapToDouble(value).sorted().toArray();
    return values.length == 0 ? "-" : String.format(Locale.ROOT, "%.2f to %.2f over %d rounds", values[0], values[values.length - 1], values.length);
  }

  private static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim().split(" ")[0];
    } catch (Exception e) {
      return "unknown";
    }
  }
}
