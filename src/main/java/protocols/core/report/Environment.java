package protocols.core.report;

import java.io.File;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The machine and library versions a report states next to its figures. */
public final class Environment {

  private static final Map<String, String> LIBRARIES = new LinkedHashMap<>();

  static {
    LIBRARIES.put("Gatling", "gatling-core-java");
    LIBRARIES.put("grpc-java", "grpc-core");
    LIBRARIES.put("libthrift", "libthrift");
    LIBRARIES.put("Dubbo", "dubbo");
    LIBRARIES.put("Motan", "motan-core");
    LIBRARIES.put("Netty", "netty-common");
    LIBRARIES.put("protobuf-java", "protobuf-java");
    LIBRARIES.put("HdrHistogram", "HdrHistogram");
  }

  private Environment() {}

  public static Map<String, String> machine() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
    m.put("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"));
    m.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    return m;
  }

  /** Library versions, read from the jar names of a classpath. */
  public static Map<String, String> libraryVersions(String classpath) {
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
