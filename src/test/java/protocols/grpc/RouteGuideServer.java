package protocols.grpc;

import benchmark.bench.Go;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import protocols.core.HostAndPort;
import protocols.testkit.ServerProcess;

/**
 * grpc-go's route_guide example server (built from interop/grpc by {@link Go}) as a process on a free
 * loopback port. It prints nothing when it listens, so readiness is a successful TCP connect.
 */
final class RouteGuideServer implements AutoCloseable {

  private final ServerProcess server;
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
    server =
        ServerProcess.accepting(
            executable.getFileName().toString(),
            List.of(executable.toString(), "-port", String.valueOf(port)),
            new HostAndPort("127.0.0.1", port));
    target = server.address.toString();
  }

  @Override
  public void close() throws InterruptedException {
    server.close();
  }
}
