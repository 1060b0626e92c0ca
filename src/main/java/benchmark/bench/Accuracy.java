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
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How close the reported latency is to the truth: against a server that answers every call after a
 * fixed service time (default 10 ms), the reported median and p99 minus that time, from Gatling's report
 * (whole milliseconds), from the microsecond record, and from the bare client loop on the same server
 * (same users, one connection each, same duration): what is left above the service time in the bare
 * loop is the server's and the machine's, what the record adds to it is the injector's own error.
 *
 * <pre>mvn test-compile exec:java@accuracy -Dframeworks=grpc -DserviceTime=10ms -Dlevel=100</pre>
 */
public final class Accuracy {

  private static final Pattern PERCENTILE =
      Pattern.compile("> response time (50|99)th percentile \\(ms\\)\\s*\\|\\s*([\\d,]+)");

  public record Row(String framework, int level, long gatlingP50Ms, long gatlingP99Ms, long recordP50Us, long recordP99Us,
      long bareP50Us, long bareP99Us, long serviceTimeUs, double recordCallsPerSecond, double bareCallsPerSecond,
      double bareMeanUs, double bareCpuPerCallUs, String problem) {

    /**
     * Little's law: closed users each waiting {@code mean} make {@code level / mean} calls a second, so
     * a loop that achieves fewer calls than {@code level / service time} waited beyond the service time
     * for something else, on a saturated machine its turn on the CPU.
     */
    double bareShareOfPossibleRate() {
      return bareCallsPerSecond * serviceTimeUs / 1e6 / level;
    }
  }

  public static void main(String[] args) throws Exception {
    execute();
    System.exit(0);
  }

  /** Runs the measurement; returns the folder of its results. */
  public static Path execute() throws Exception {
    List<Framework> frameworks = Bench.frameworks("rpcx,grpc,thrift,dubbo,motan");
    Duration serviceTime = Durations.parse(System.getProperty("serviceTime", "10ms"), "-DserviceTime");
    int level = Integer.parseInt(System.getProperty("level", "100"));
    Duration hold = Durations.parse(System.getProperty("hold", "20s"), "-Dhold");
    Path out = Bench.out("accuracy");
    Jvms jvms = new Jvms();
    List<Row> rows = Bench.eachFramework(jvms, frameworks, out, "2g", List.of("--service-time", serviceTime.toMillis() + "ms"),
        (framework, target, dir) -> {
          // no warm-up phase: Gatling's console then reports the measured request alone
          Process gatling = jvms.startGatling("2g",
              List.of("-Dtarget=" + target, "-Dlevels=" + level, "-Dramp=0", "-Dhold=" + hold.toMillis() + "ms", "-Dconnections=per-user"),
              framework.simulationClass(), dir.resolve("gatling"), dir.resolve("gatling.log"));
          Jvms.await(gatling, hold.plusSeconds(180));
          // the bare client loop on the same server, users and connections: what the library alone measures
          Process bare = jvms.start(List.of("-Xmx2g"), "benchmark.bare.BareLoopMain",
              List.of(framework.id(), target.toString(), String.valueOf(level), "per-user", "0ms", hold.toMillis() + "ms",
                  dir.resolve("bare.json").toString()),
              dir.resolve("bare.log"));
          Jvms.await(bare, hold.plusSeconds(180));
          return row(framework.id(), level, serviceTime, dir);
        },
        (framework, reason) -> new Row(framework.id(), level, 0, 0, 0, 0, 0, 0, serviceTime.toNanos() / 1000, 0, 0, 0, 0, reason));
    new ObjectMapper().writerWithDefaultPrettyPrinter().writeValue(out.resolve("accuracy.json").toFile(), rows);
    StringBuilder md = new StringBuilder(String.format(Locale.ROOT,
        "Server service time %s, %d concurrent users, %s, one connection per user; reported minus service time.%n%n"
            + "| framework | Gatling p50 − service (ms) | Gatling p99 − service (ms) | record p50 − service (µs) | record p99 − service (µs)"
            + " | bare loop p50 − service (µs) | bare loop p99 − service (µs) | injector's own p50 error: record − bare (µs)"
            + " | server's own view: replies late past their due time, p50 / p99 (µs)"
            + " | calls/s, record / bare loop (the users could make %,d) | bare loop: share of that rate, CPU per call (µs) |"
            + "%n|---|---|---|---|---|---|---|---|---|---|---|%n",
        Durations.format(serviceTime), level, Durations.format(hold), Math.round(level * 1e9 / serviceTime.toNanos())));
    long st = serviceTime.toNanos() / 1000;
    for (Row r : rows) {
      md.append(String.format(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %d | %d | %s | %,.0f / %,.0f | %.0f %%, %.1f |%s%n", r.framework(),
          r.gatlingP50Ms() - st / 1000, r.gatlingP99Ms() - st / 1000, r.recordP50Us() - st, r.recordP99Us() - st, r.bareP50Us() - st,
          r.bareP99Us() - st, r.recordP50Us() - r.bareP50Us(), serverLateness(out.resolve(r.framework()).resolve("server.log")),
          r.recordCallsPerSecond(), r.bareCallsPerSecond(), 100 * r.bareShareOfPossibleRate(), r.bareCpuPerCallUs(),
          r.problem() == null ? "" : " " + r.problem()));
    }
    md.append(String.format(Locale.ROOT, "%nA bare loop far below 100 %% of the rate its users could make waited for the machine, not"
        + " for the server (Little's law: %d users / calls per second = the mean wait): then the figures above the service time"
        + " are the saturated machine's queue, and a lower -Dlevel measures the injector's own error.%n", level));
    Files.writeString(out.resolve("accuracy.md"), md.toString() + "\n" + MachineReference.line() + "\n");
    System.out.println(md);
    return out;
  }

  private static final Pattern LATENESS = Pattern.compile("went late by p50 (\\d+) µs, p99 (\\d+) µs");

  /** What the server printed when stopped ({@code ServiceTime.latenessSummary}): its Gatling and bare-loop replies together. */
  static String serverLateness(Path serverLog) {
    try {
      Matcher m = LATENESS.matcher(Files.readString(serverLog));
      return m.find() ? m.group(1) + " / " + m.group(2) : "–";
    } catch (IOException e) {
      return "–";
    }
  }

  static Row row(String id, int level, Duration serviceTime, Path dir) throws IOException {
    long p50 = 0, p99 = 0;
    Matcher m = PERCENTILE.matcher(Files.readString(dir.resolve("gatling.log")));
    while (m.find()) {
      long v = Long.parseLong(m.group(2).replace(",", ""));
      if (m.group(1).equals("50")) {
        p50 = v;
      } else {
        p99 = v;
      }
    }
    JsonNode say = GatlingResults.measured(GatlingResults.newestRun(dir.resolve("gatling")));
    JsonNode bare = GatlingResults.measuredIn(dir.resolve("bare.json"));
    String problem = say == null ? "no record" + Jvms.tail(dir.resolve("gatling.log"))
        : bare == null ? "bare loop wrote no result" + Jvms.tail(dir.resolve("bare.log")) : null;
    return new Row(id, level, p50, p99, say == null ? 0 : say.get("p50").asLong(), say == null ? 0 : say.get("p99").asLong(),
        bare == null ? 0 : bare.get("p50").asLong(), bare == null ? 0 : bare.get("p99").asLong(), serviceTime.toNanos() / 1000,
        say == null ? 0 : say.path("throughput").asDouble(), bare == null ? 0 : bare.path("throughput").asDouble(),
        bare == null ? 0 : bare.path("mean").asDouble(), bare == null ? 0 : bare.path("cpuPerCall").asDouble(), problem);
  }
}
