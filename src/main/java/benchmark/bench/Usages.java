package benchmark.bench;

import benchmark.bench.ProcessMeter.Usage;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.HdrHistogram.Histogram;
import protocols.core.report.Calls;
import protocols.core.report.RunData;

/**
 * One run's measured window seen from /proc: the injector's and the server's CPU per call, user and
 * system apart, and their context switches per call ({@link ProcessMeter}). Either side is null when
 * it could not be read (no /proc, a run that measured nothing).
 */
record Usages(long calls, Usage injector, Usage server) {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MEASURED = "Say";

  /** A bare loop's window and calls, as BareLoopMain wrote them into {@code json}. */
  static Usages ofBareLoop(Path json, ProcessMeter injector, ProcessMeter server) {
    return ofBareLoop(json, MEASURED, injector, server);
  }

  /** A bare loop's window and its count of {@code measured} (calls, messages), as it wrote them into {@code json}. */
  static Usages ofBareLoop(Path json, String measured, ProcessMeter injector, ProcessMeter server) {
    try {
      JsonNode result = JSON.readTree(json.toFile());
      return of(result.path("requests").path(measured).path("count").asLong(),
          result.path("fromMillis").asLong(), result.path("toMillis").asLong(), injector, server);
    } catch (IOException | RuntimeException e) {
      return new Usages(0, null, null);
    }
  }

  /**
   * A Gatling run's window ({@link #settledWindow}): from {@code settle} after the first of its measured request's
   * seconds in the record to the end of the last.
   */
  static Usages ofGatlingRun(Path runFolder, Duration settle, ProcessMeter injector, ProcessMeter server) {
    return ofGatlingRun(runFolder, MEASURED, settle, injector, server);
  }

  /** The same for the request name {@code measured} (a stream's messages: one record each). */
  static Usages ofGatlingRun(Path runFolder, String measured, Duration settle, ProcessMeter injector, ProcessMeter server) {
    try {
      Calls window = settledWindow(runFolder, measured, settle);
      Histogram h = window == null ? null : window.histogram();
      return h == null ? new Usages(0, null, null)
          : of(h.getTotalCount(), h.getStartTimeStamp(), h.getEndTimeStamp(), injector, server);
    } catch (IOException | RuntimeException e) {
      return new Usages(0, null, null);
    }
  }

  /**
   * The whole seconds of a request name in a run's record from {@code settle} after its first one to its
   * last ({@link RunData#window}: the histogram's time stamps are their bounds); null when none holds a call.
   */
  static Calls settledWindow(Path runFolder, String measured, Duration settle) throws IOException {
    RunData data = RunData.read(runFolder);
    List<Histogram> seconds = data.intervals(measured);
    long from = seconds.stream().mapToLong(Histogram::getStartTimeStamp).min().orElse(0) + settle.toMillis();
    long to = seconds.stream().mapToLong(Histogram::getEndTimeStamp).max().orElse(0);
    Calls window = data.window(measured, from, to);
    return window.histogram().getTotalCount() == 0 ? null : window;
  }

  private static Usages of(long calls, long from, long to, ProcessMeter injector, ProcessMeter server) {
    if (calls <= 0 || to <= from) {
      return new Usages(0, null, null);
    }
    return new Usages(calls, perCall(injector, from, to, calls), perCall(server, from, to, calls));
  }

  private static Usage perCall(ProcessMeter meter, long from, long to, long calls) {
    Usage usage = meter == null ? null : meter.between(from, to);
    return usage == null ? null : usage.perCall(calls);
  }

  void write(Path file) throws IOException {
    JSON.writerWithDefaultPrettyPrinter().writeValue(file.toFile(), this);
  }

  /** What {@link #write} wrote, or an empty reading when there is none. */
  static Usages read(Path file) {
    try {
      return Files.exists(file) ? JSON.readValue(file.toFile(), Usages.class) : new Usages(0, null, null);
    } catch (IOException e) {
      return new Usages(0, null, null);
    }
  }
}
