package benchmark.matrix;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;
import protocols.core.LatencyRecord;

/** What a Gatling run left in its results folder, as the benchmark commands read it. */
public final class GatlingResults {

  /** The request name every benchmark simulation measures. */
  public static final String MEASURED = "Say";

  private static final ObjectMapper JSON = new ObjectMapper();

  private GatlingResults() {}

  /** The run folder Gatling created last under {@code resultsFolder}, or null. */
  public static Path newestRun(Path resultsFolder) {
    if (!Files.isDirectory(resultsFolder)) {
      return null;
    }
    try (Stream<Path> runs = Files.list(resultsFolder)) {
      return runs.filter(Files::isDirectory).max(Comparator.comparingLong(p -> p.toFile().lastModified())).orElse(null);
    } catch (IOException e) {
      return null;
    }
  }

  /** The microsecond record's figures of the measured request in a run folder, or null. */
  public static JsonNode measured(Path runFolder) {
    return runFolder == null ? null : measuredIn(runFolder.resolve(LatencyRecord.SUMMARY_FILE));
  }

  /** The measured request's figures in a file of the record's form, or null. */
  public static JsonNode measuredIn(Path summary) {
    try {
      return Files.exists(summary) ? JSON.readTree(summary.toFile()).path("requests").get(MEASURED) : null;
    } catch (IOException e) {
      return null;
    }
  }
}
