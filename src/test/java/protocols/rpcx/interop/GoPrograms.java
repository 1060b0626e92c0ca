package protocols.rpcx.interop;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import protocols.core.HostAndPort;

/**
 * The Go programs of interop/rpcx (built on rpcx's own Go code), built with {@code go build} once per
 * test JVM and run as processes on loopback. Every process is bounded in time and killed by its owner.
 */
final class GoPrograms {

  static final Duration BUILD_TIMEOUT = Duration.ofMinutes(5);
  private static final Pattern LISTENING = Pattern.compile("listening on (\\S+)");

  private static Path binaries;

  private GoPrograms() {}

  /** The module's directory: interop/rpcx under the project (Maven runs tests there). */
  static Path module() {
    return Paths.get(System.getProperty("user.dir")).resolve("interop/rpcx").toAbsolutePath();
  }

  /** Builds (once) and returns the directory holding rpcx-benchmark-server and rpcx-benchmark-client. */
  static synchronized Path build() throws Exception {
    if (binaries != null) {
      return binaries;
    }
    String go = findGo();
    Path out = Paths.get(System.getProperty("user.dir")).resolve("target/rpcx-interop/bin").toAbsolutePath();
    Files.createDirectories(out);
    Path log = out.resolveSibling("go-build.log");
    Process build =
        new ProcessBuilder(go, "build", "-mod=readonly", "-o", out + File.separator, "./cmd/...")
            .directory(module().toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    try {
      if (!build.waitFor(BUILD_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        throw new AssertionError(
            "go build of " + module() + " did not finish within " + BUILD_TIMEOUT.toMinutes() + " minutes (log: " + log + ")");
      }
      if (build.exitValue() != 0) {
        throw new AssertionError(
            "go build of " + module() + " failed (exit " + build.exitValue() + "):\n" + Files.readString(log));
      }
    } finally {
      build.destroyForcibly();
    }
    binaries = out;
    return out;
  }

  /** {@code -Dgo=/path/to/go}, else {@code go} on the PATH, else /usr/local/go/bin/go. */
  private static String findGo() {
    List<String> candidates = new ArrayList<>();
    String configured = System.getProperty("go");
    if (configured != null && !configured.isBlank()) {
      if (!new File(configured).canExecute()) {
        throw new AssertionError("-Dgo=" + configured + ": expected the path of an executable go (Go 1.26 or newer)");
      }
      return configured;
    }
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty()) {
        candidates.add(Paths.get(dir, "go").toString());
      }
    }
    candidates.add("/usr/local/go/bin/go");
    for (String candidate : candidates) {
      if (new File(candidate).canExecute()) {
        return candidate;
      }
    }
    throw new AssertionError(
        "Go not found: the rpcx interop tests build interop/rpcx (github.com/smallnest/rpcx v1.9.4) with 'go build'"
            + " and need Go 1.26 or newer on the PATH, or -Dgo=/path/to/go. Looked at: " + candidates);
  }

  /** The Go rpcx benchmark server, listening on a free loopback port. */
  static final class Server implements AutoCloseable {
    final Process process;
    final HostAndPort address;
    private final StringBuffer output = new StringBuffer();

    Server(String... extraArgs) throws Exception {
      List<String> command = new ArrayList<>(List.of(build().resolve("rpcx-benchmark-server").toString(), "-addr", "127.0.0.1:0"));
      command.addAll(List.of(extraArgs));
      process = new ProcessBuilder(command).redirectErrorStream(true).start();
      CompletableFuture<HostAndPort> listening = new CompletableFuture<>();
      Thread reader =
          new Thread(
              () -> {
                try (BufferedReader lines =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                  for (String line; (line = lines.readLine()) != null; ) {
                    output.append(line).append('\n');
                    Matcher m = LISTENING.matcher(line);
                    if (m.find()) {
                      listening.complete(HostAndPort.parse(m.group(1), "the Go server's address"));
                    }
                  }
                } catch (IOException e) {
                  // the process ended
                }
                listening.completeExceptionally(new AssertionError("the Go server ended: " + output));
              },
              "go-rpcx-server-output");
      reader.setDaemon(true);
      reader.start();
      try {
        address = listening.get(20, TimeUnit.SECONDS);
      } catch (Exception e) {
        close();
        throw new AssertionError("the Go rpcx server did not report listening within 20 s: " + output, e);
      }
    }

    @Override
    public void close() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(5, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    }
  }

  /** The outcome of the Go client: its exit code and what it printed. */
  record ClientRun(int exitCode, String output) {}

  /** Runs rpcx's own Go client against {@code target}, killed after {@code timeout}. */
  static ClientRun client(HostAndPort target, Duration timeout, String... args) throws Exception {
    List<String> command =
        new ArrayList<>(List.of(build().resolve("rpcx-benchmark-client").toString(), "-s", target.toString()));
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    try {
      CompletableFuture<String> output =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                } catch (IOException e) {
                  return "(output unreadable: " + e + ")";
                }
              });
      if (!process.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError("the Go rpcx client did not finish within " + timeout.toSeconds() + " s: " + output.getNow(""));
      }
      return new ClientRun(process.exitValue(), output.get(5, TimeUnit.SECONDS));
    } finally {
      process.destroyForcibly();
    }
  }
}
