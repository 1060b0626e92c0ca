package benchmark.matrix;

import java.util.List;
import java.util.Map;
import protocols.core.report.Environment;

/** The matrix's results as {@code results.json} holds them: latencies in microseconds. */
public record Results(
    String format,
    String finishedAt,
    Map<String, String> settings,
    Map<String, String> machine,
    Map<String, String> versions,
    List<Cell> cells,
    List<SweepStep> saturation,
    List<Knee> knees) {

  public static final String FORMAT = "gatling-rpc-matrix/1";

  /** Closed levels only, no saturation sweep. */
  public Results(String format, String finishedAt, Map<String, String> settings, Map<String, String> machine,
      Map<String, String> versions, List<Cell> cells) {
    this(format, finishedAt, settings, machine, versions, cells, List.of(), List.of());
  }

  public Results {
    // a results.json from before the sweep has neither
    saturation = saturation == null ? List.of() : saturation;
    knees = knees == null ? List.of() : knees;
  }

  static Map<String, String> describeMachine() {
    return Environment.machine();
  }

  /** Library versions, read from the jar names of the classpath the runs used. */
  static Map<String, String> libraryVersions(String classpath) {
    return Environment.libraryVersions(classpath);
  }
}
