package protocols.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gatling.app.Gatling$;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import benchmark.matrix.GatlingResults;
import protocols.core.LatencyRecord;
import protocols.core.report.RunEnd;

/**
 * Runs a simulation through the real Gatling engine in this JVM, as {@code mvn gatling:test} would,
 * and reads what it produced: Gatling's exit code (non-zero when an assertion failed) and the
 * microsecond record of every call.
 */
public final class GatlingRun {

  public final int exitCode;
  public final Path runFolder;
  public final Duration wallTime;
  private final JsonNode record;

  private GatlingRun(int exitCode, Path runFolder, Duration wallTime, JsonNode record) {
    this.exitCode = exitCode;
    this.runFolder = runFolder;
    this.wallTime = wallTime;
    this.record = record;
  }

  /** Runs without HTML reports (faster); the system properties are set for the run only. */
  public static GatlingRun run(Class<?> simulation, Map<String, String> properties) {
    return run(simulation, properties, false);
  }

  public static synchronized GatlingRun run(
      Class<?> simulation, Map<String, String> properties, boolean reports) {
    Path results =
        Paths.get(System.getProperty("gatlingrpc.test.results", "target/gatling-it"))
            .resolve(simulation.getSimpleName() + "-" + System.nanoTime());
    long start = System.nanoTime();
    String[] args =
        reports
            ? new String[] {"--simulation", simulation.getName(), "--results-folder", results.toAbsolutePath().toString()}
            : new String[] {
              "--simulation", simulation.getName(), "--results-folder", results.toAbsolutePath().toString(), "--no-reports"
            };
    int exitCode;
    try {
      exitCode = SystemProperties.with(properties, () -> Gatling$.MODULE$.fromArgs(args));
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(e); // fromArgs declares no checked exception
    }
    Duration wall = Duration.ofNanos(System.nanoTime() - start);
    Path folder = Objects.requireNonNullElse(GatlingResults.newestRun(results), results);
    // what the forked JVM of `mvn gatling:test` does at its exit: the exact assertions and the gate can fail the run
    int exact = RunEnd.finish(folder);
    return new GatlingRun(exitCode != 0 ? exitCode : exact, folder, wall, readRecord(folder));
  }

  /** The record's figures for one request name, or for {@code "all"}. */
  public JsonNode request(String name) {
    if (record == null) {
      throw new AssertionError("the run wrote no " + LatencyRecord.SUMMARY_FILE + " in " + runFolder);
    }
    JsonNode node = name.equals("all") ? record.get("all") : record.get("requests").get(name);
    if (node == null) {
      throw new AssertionError("no request named '" + name + "' in " + record.get("requests").fieldNames().next() + "...: " + record);
    }
    return node;
  }

  /** The record's stream statistics of one request name. */
  public JsonNode streams(String name) {
    request("all"); // fails readably when there is no record
    JsonNode node = record.path("streams").get(name);
    if (node == null) {
      throw new AssertionError("no streams named '" + name + "' in the record: " + record);
    }
    return node;
  }

  public long count(String name) {
    return request(name).get("count").asLong();
  }

  public long ok(String name) {
    return request(name).get("ok").asLong();
  }

  public long ko(String name) {
    return request(name).get("ko").asLong();
  }

  /** The KO messages of a request, joined, for assertions on their text. */
  public String errors(String name) {
    return request(name).path("errors").toString();
  }

  private static JsonNode readRecord(Path folder) {
    Path summary = folder.resolve(LatencyRecord.SUMMARY_FILE);
    if (!Files.exists(summary)) {
      return null;
    }
    try {
      return new ObjectMapper().readTree(summary.toFile());
    } catch (IOException e) {
      throw new AssertionError("unreadable " + summary + ": " + e);
    }
  }

  @Override
  public String toString() {
    return "exit " + exitCode + " in " + wallTime.toMillis() + " ms, record " + record;
  }
}
