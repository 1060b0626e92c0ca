package benchmark.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The Go programs the benchmarks and tests run, built with the go command into target/: interop/rpcx's
 * rpcx benchmark server and client (rpcx's own Go code), grpc-go's route_guide server (interop/grpc),
 * and Go tools installed from the module proxy (ghz).
 */
public final class Go {

  private static Path rpcxPrograms;
  private static Path routeGuideServer;
  private static Path reflectionServer;

  private Go() {}

  /**
   * Builds interop/rpcx's programs (once per JVM; go build itself skips what is up to date) and returns
   * the directory holding rpcx-benchmark-server and rpcx-benchmark-client.
   */
  public static synchronized Path rpcxPrograms() throws IOException, InterruptedException {
    if (rpcxPrograms == null) {
      Path module = Bench.project().resolve("interop/rpcx");
      Path out = Files.createDirectories(Bench.project().resolve("target/rpcx-interop/bin"));
      Bench.runToEnd(List.of(executable(), "build", "-mod=readonly", "-o", out + File.separator, "./cmd/..."), module, Map.of(),
          out.resolveSibling("go-build.log"), "go build of " + module);
      rpcxPrograms = out;
    }
    return rpcxPrograms;
  }

  /**
   * Builds (once per JVM) grpc-go's route_guide example server from interop/grpc, the wrapper module
   * that pins it (the examples module's replace directives keep {@code go install} from building it).
   */
  public static synchronized Path routeGuideServer() throws IOException, InterruptedException {
    if (routeGuideServer == null) {
      routeGuideServer = grpcExample("route_guide/server", "route_guide_server");
    }
    return routeGuideServer;
  }

  /** grpc-go's features/reflection example server (Greeter and Echo, with server reflection), built as above. */
  public static synchronized Path reflectionServer() throws IOException, InterruptedException {
    if (reflectionServer == null) {
      reflectionServer = grpcExample("features/reflection/server", "reflection_server");
    }
    return reflectionServer;
  }

  private static Path grpcExample(String pkg, String name) throws IOException, InterruptedException {
    Path module = Bench.project().resolve("interop/grpc");
    Path out = Files.createDirectories(Bench.project().resolve("target/grpc-interop/bin"));
    Path executable = out.resolve(name);
    Bench.runToEnd(
        List.of(executable(), "build", "-mod=readonly", "-o", executable.toString(), "google.golang.org/grpc/examples/" + pkg),
        module, Map.of(), out.resolveSibling("go-build-" + name + ".log"), "go build of " + pkg + " in " + module);
    return executable;
  }

  /**
   * The executable {@code name} of Go package {@code pkg} at {@code version}, installed from the module
   * proxy into target/tools/{@code name}-{@code version}/ unless it is there already.
   */
  public static synchronized Path install(String pkg, String version, String name) throws IOException, InterruptedException {
    Path bin = Bench.project().resolve("target/tools").resolve(name + "-" + version);
    Path executable = bin.resolve(name);
    if (!Files.isExecutable(executable)) {
      Files.createDirectories(bin);
      Bench.runToEnd(List.of(executable(), "install", pkg + "@" + version), bin, Map.of("GOBIN", bin.toString()),
          bin.resolveSibling(name + "-" + version + "-install.log"), "go install " + pkg + "@" + version);
    }
    return executable;
  }

  /** {@code -Dgo=/path/to/go}, else {@code go} on the PATH, else /usr/local/go/bin/go. */
  static String executable() {
    String configured = System.getProperty("go");
    if (configured != null && !configured.isBlank()) {
      if (!new File(configured).canExecute()) {
        throw new IllegalArgumentException("-Dgo=" + configured + ": expected the path of an executable go (Go 1.26 or newer)");
      }
      return configured;
    }
    return Bench.onPath("go", "/usr/local/go/bin/go")
        .orElseThrow(() -> new IllegalStateException(
            "Go not found: interop/rpcx (github.com/smallnest/rpcx v1.9.4) and ghz are built with the go command,"
                + " which needs Go 1.26 or newer on the PATH (or in /usr/local/go/bin), or -Dgo=/path/to/go"));
  }
}
