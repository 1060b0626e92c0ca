package benchmark.bench;

import protocols.core.Durations;
import benchmark.matrix.Framework;
import benchmark.matrix.GatlingResults;
import benchmark.matrix.Jvms;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import protocols.core.HostAndPort;

/**
 * Can the injector hold the seed's top level? For each framework: 100 users, then 5000, each for
 * {@code -Dhold} (default 60 s), against the server in its own JVM; the injector's heap after GC,
 * threads and open file descriptors are sampled every 2 s. Connections: each simulation's own default
 * (one per user, as the seed's clients; Dubbo one shared, as Dubbo's consumers and the seed's Dubbo
 * client), or {@code -Dconnections=per-user|N} for all.
 *
 * <pre>mvn test-compile exec:java@scale -Dframeworks=grpc,rpcx -Dhold=60s</pre>
 */
public final class Scale {

  private static final Pattern AFTER_GC = Pattern.compile("->(\\d+)M\\(\\d+M\\)");

  /** What one framework's injector looked like at each level. */
  public record Row(
      String framework, long calls, double successPercent, double throughput,
      int threadsAtLow, int threadsAtHigh, int maxFds, long maxHeapAfterGcMiB, String problem,
      Map<String, Integer> threadNamesAtLow, Map<String, Integer> threadNamesAtHigh) {

    Row(String framework, long calls, double successPercent, double throughput,
        int threadsAtLow, int threadsAtHigh, int maxFds, long maxHeapAfterGcMiB, String problem) {
      this(framework, calls, successPercent, throughput, threadsAtLow, threadsAtHigh, maxFds, maxHeapAfterGcMiB, problem, Map.of(), Map.of());
    }

    /** The thread names whose count differs between the two levels: "name a → b". */
    List<String> threadsThatChanged() {
      java.util.TreeSet<String> names = new java.util.TreeSet<>(threadNamesAtLow.keySet());
      names.addAll(threadNamesAtHigh.keySet());
      List<String> changed = new ArrayList<>();
      for (String name : names) {
        int a = threadNamesAtLow.getOrDefault(name, 0);
        int b = threadNamesAtHigh.getOrDefault(name, 0);
        if (a != b) {
          changed.add("`" + name + "` " + a + " → " + b);
        }
      }
      return changed;
    }
  }

  public static void main(String[] args) throws Exception {
    execute();
    System.exit(0);
  }

  /** Runs the measurement; returns the folder of its results. */
  public static Path execute() throws Exception {
    List<Framework> frameworks = Bench.frameworks("rpcx,grpc,thrift,dubbo,motan");
    int low = Integer.parseInt(System.getProperty("low", "100"));
    int high = Integer.parseInt(System.getProperty("high", "5000"));
    Duration hold = Durations.parse(System.getProperty("hold", "60s"), "-Dhold");
    Duration ramp = Durations.parse(System.getProperty("ramp", "10s"), "-Dramp");
    String connections = System.getProperty("connections");
    Path out = Bench.out("scale");
    Jvms jvms = new Jvms();
    List<Row> rows = Bench.eachFramework(jvms, frameworks, out, "4g", List.of(),
        (framework, target, dir) -> run(jvms, framework, target, low, high, ramp, hold, connections, dir),
        (framework, reason) -> new Row(framework.id(), 0, 0, 0, 0, 0, 0, 0, reason));
    new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(out.resolve("scale.json").toFile(), rows);
    StringBuilder md = new StringBuilder(String.format(Locale.ROOT,
        "%d then %d concurrent users, %s each (ramp %s), %s, server in its own JVM; injector -Xmx2g; %d cores.%n%n"
            + "| framework | calls | success %% | calls/s | threads at %d | threads at %d | max open fds | max heap after GC (MiB) |%n|---|---|---|---|---|---|---|---|%n",
        low, high, Durations.format(hold), Durations.format(ramp),
        connections == null ? "each simulation's default connections (one per user; Dubbo one shared)" : "-Dconnections=" + connections,
        Runtime.getRuntime().availableProcessors(), low, high));
    for (Row r : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %d | %.3f | %.0f | %d | %d | %d | %d |%s%n", r.framework(), r.calls(), r.successPercent(),
          r.throughput(), r.threadsAtLow(), r.threadsAtHigh(), r.maxFds(), r.maxHeapAfterGcMiB(), r.problem() == null ? "" : " " + r.problem()));
    }
    md.append(String.format("%nThreads whose count differs between the levels, by name (/proc's thread names, digits folded to #), at each level's largest sample:%n%n"));
    for (Row r : rows) {
      List<String> changed = r.threadsThatChanged();
      md.append("- ").append(r.framework()).append(": ").append(changed.isEmpty() ? "none" : String.join(", ", changed)).append(System.lineSeparator());
    }
    Files.writeString(out.resolve("scale.md"), md.toString() + "\n" + MachineReference.line() + "\n");
    System.out.println(md);
    return out;
  }

  static Row run(Jvms jvms, Framework framework, HostAndPort target, int low, int high, Duration ramp, Duration hold,
      String connections, Path dir) throws IOException, InterruptedException {
    Path gcLog = dir.resolve("gc.log");
    List<String> props = new ArrayList<>(List.of("-Dtarget=" + target, "-Dlevels=" + low + "," + high,
        "-Dramp=" + ramp.toMillis() + "ms", "-Dhold=" + hold.toMillis() + "ms", "-Xlog:gc:file=" + gcLog));
    if (connections != null) {
      props.add("-Dconnections=" + connections);
    }
    Process gatling = jvms.startGatling("2g", props, framework.simulationClass(), dir.resolve("gatling"), dir.resolve("gatling.log"));
    long start = System.nanoTime();
    long lowEnds = ramp.plus(hold).toNanos();
    long highFrom = lowEnds + ramp.toNanos();
    int threadsLow = 0, threadsHigh = 0, maxFds = 0;
    Map<String, Integer> namesLow = Map.of(), namesHigh = Map.of();
    while (gatling.isAlive()) {
      Thread.sleep(2000);
      long t = System.nanoTime() - start;
      int threads = threads(gatling.pid());
      if (t > ramp.toNanos() && t < lowEnds && threads > threadsLow) {
        threadsLow = threads;
        namesLow = threadNames(gatling.pid());
      } else if (t > highFrom && threads > threadsHigh) {
        threadsHigh = threads;
        namesHigh = threadNames(gatling.pid());
      }
      maxFds = Math.max(maxFds, fds(gatling.pid()));
      if (t > ramp.multipliedBy(2).plus(hold.multipliedBy(2)).plusSeconds(180).toNanos()) {
        gatling.destroyForcibly();
      }
    }
    JsonNode say = GatlingResults.measured(GatlingResults.newestRun(dir.resolve("gatling")));
    if (say == null) {
      return new Row(framework.id(), 0, 0, 0, threadsLow, threadsHigh, maxFds, maxAfterGc(gcLog), "no record" + Jvms.tail(dir.resolve("gatling.log")),
          namesLow, namesHigh);
    }
    long count = say.get("count").asLong();
    return new Row(framework.id(), count, count == 0 ? 0 : 100.0 * say.get("ok").asLong() / count, say.get("throughput").asDouble(),
        threadsLow, threadsHigh, maxFds, maxAfterGc(gcLog), null, namesLow, namesHigh);
  }

  /**
   * The process's threads counted by name, digits folded to {@code #} ("pool-1-thread-2" and
   * "pool-1-thread-3" are "pool-#-thread-#"): the JVM gives each thread's name, cut to 15 characters,
   * to the kernel, which shows it in /proc.
   */
  static Map<String, Integer> threadNames(long pid) {
    Map<String, Integer> names = new java.util.TreeMap<>();
    try (Stream<Path> tasks = Files.list(Path.of("/proc", String.valueOf(pid), "task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          String name = Files.readString(task.resolve("comm")).trim().replaceAll("\\d+", "#");
          names.merge(name, 1, Integer::sum);
        } catch (IOException e) {
          // the thread ended between the listing and the read
        }
      }
    } catch (IOException | java.io.UncheckedIOException e) {
      // the process ended between two samples
    }
    return names;
  }

  static int threads(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(pid), "status"))) {
        if (line.startsWith("Threads:")) {
          return Integer.parseInt(line.substring(8).trim());
        }
      }
    } catch (IOException | NumberFormatException e) {
      // the process ended between two samples
    }
    return 0;
  }

  static int fds(long pid) {
    try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
      return (int) fds.count();
    } catch (IOException | java.io.UncheckedIOException e) {
      return 0;
    }
  }

  /** The largest heap left after a collection, from the unified GC log ("... 512M->123M(1024M) ..."). */
  static long maxAfterGc(Path gcLog) {
    try {
      Matcher m = AFTER_GC.matcher(Files.readString(gcLog));
      long max = 0;
      while (m.find()) {
        max = Math.max(max, Long.parseLong(m.group(1)));
      }
      return max;
    } catch (IOException e) {
      return 0;
    }
  }
}
