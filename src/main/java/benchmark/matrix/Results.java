package benchmark.matrix;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The matrix's results as {@code results.json} holds them: latencies in microseconds. */
public record Results(
    String format,
    String finishedAt,
    Map<String, String> settings,
    Map<String, String> machine,
    Map<String, String> versions,
    List<Cell> cells) {

  public static final String FORMAT = "gatling-rpc-matrix/1";

  static Map<String, String> describeMachine() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
    m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
    m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    return m;
  }

  private static final Map<String, String> LIBRARIES =
      Map.of(
          "Gatling", "gatling-core-java",
          "grpc-java", "grpc-core",
          "libthrift", "libthrift",
          "Dubbo", "dubbo",
          "Motan", "motan-core",
          "Netty", "netty-common",
          "protobuf-java", "protobuf-java");

  /** Library versions, read from the jar names of the classpath the runs used. */
  static Map<String, String> libraryVersions(String classpath) {
    Map<String, String> versions = new LinkedHashMap<>();
    for (Map.Entry<String, String> library : LIBRARIES.entrySet()) {
      Pattern jar = Pattern.compile(Pattern.quote(library.getValue()) + "-(\\d[^/\\\\]*?)\\.jar$");
      for (String entry : classpath.split(File.pathSeparator)) {
        Matcher m = jar.matcher(entry);
        if (m.find()) {
          versions.put(library.getKey(), m.group(1));
          break;
        }
      }
    }
    versions.put("rpcx", "this project's Java implementation of the rpcx protocol");
    return versions;
  }
}
