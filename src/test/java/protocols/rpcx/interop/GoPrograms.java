package protocols.rpcx.interop;

import benchmark.bench.Go;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import protocols.core.HostAndPort;
import protocols.testkit.ServerProcess;

/**
 * The Go programs of interop/rpcx (built on rpcx's own Go code), built by {@link Go} once per test JVM
 * and run as processes on loopback. Every process is bounded in time and killed by its owner.
 */
final class GoPrograms {

  private GoPrograms() {}

  /** Builds (once) and returns the directory holding rpcx-benchmark-server and rpcx-benchmark-client. */
  static Path build() throws Exception {
    return Go.rpcxPrograms();
  }

  /** The Go rpcx benchmark server, listening on a free loopback port. */
  static final class Server implements AutoCloseable {
    private final ServerProcess server;
    final HostAndPort address;

    Server(String... extraArgs) throws Exception {
      List<String> command = new ArrayList<>(List.of(build().resolve("rpcx-benchmark-server").toString(), "-addr", "127.0.0.1:0"));
      command.addAll(List.of(extraArgs));
      server = ServerProcess.printingListening("the Go rpcx server", command);
      address = server.address;
    }

    @Override
    public void close() throws InterruptedException {
      server.close();
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
