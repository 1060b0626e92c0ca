package protocols.grpc;

import benchmark.bench.Go;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * grpc-go's route_guide example server (built from interop/grpc by {@link Go}) as a process on a free
 * loopback port. It prints nothing when it listens, so readiness is a successful TCP connect.
 */
final class RouteGuideServer implements AutoCloseable {

  private final Process process;
  private final Path log;
  final String target;

  RouteGuideServer() throws Exception {
    this(Go.routeGuideServer());
  }

  /** Another of grpc-go's example servers that takes {@code -port} (features/reflection's). */
  RouteGuideServer(Path executable) throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    log = Files.createTempFile(executable.getFileName().toString(), ".log");
    process =
        new ProcessBuilder(executable.toString(), "-port", String.valueOf(port))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    target = "127.0.0.1:" + port;
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!accepts(port)) {
      if (!process.isAlive() || System.nanoTime() > until) {
        close();
        throw new AssertionError(executable.getFileName() + " did not listen on " + target + " within 20 s: " + Files.readString(log));
      }
      Thread.sleep(50);
    }
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
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
