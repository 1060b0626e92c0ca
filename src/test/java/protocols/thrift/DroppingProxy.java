package protocols.thrift;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of a server that, while {@link #dropping} is set, closes a connection as soon as
 * a request arrives on it: the server's connection closing mid-call, as a crash or restart does.
 * Otherwise it forwards both ways. A thread per connection: tests open a handful.
 */
final class DroppingProxy implements AutoCloseable {

  private final ServerSocket listener;
  private final int targetPort;
  private final List<Socket> sockets = new CopyOnWriteArrayList<>();
  volatile boolean dropping = true;

  DroppingProxy(int targetPort) throws IOException {
    this.targetPort = targetPort;
    this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread accepting = new Thread(this::accept, "dropping-proxy");
    accepting.setDaemon(true);
    accepting.start();
  }

  String address() {
    return "127.0.0.1:" + listener.getLocalPort();
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        Socket client = listener.accept();
        Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
        sockets.add(client);
        sockets.add(server);
        pump(client, server, true);
        pump(server, client, false);
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void pump(Socket from, Socket to, boolean requests) {
    Thread thread =
        new Thread(
            () -> {
              byte[] buffer = new byte[8192];
              try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) > 0) {
                  if (requests && dropping) {
                    break; // a request arrived: hang up on it
                  }
                  out.write(buffer, 0, n);
                }
              } catch (IOException e) {
                // the other direction closed it
              } finally {
                closeQuietly(from);
                closeQuietly(to);
              }
            },
            "dropping-proxy-pump");
    thread.setDaemon(true);
    thread.start();
  }

  private static void closeQuietly(Socket socket) {
    try {
      socket.close();
    } catch (IOException ignored) {
      // already closed
    }
  }

  /** Closes every connection made so far, as a server closing idle connections does. */
  void hangUpAll() {
    sockets.forEach(DroppingProxy::closeQuietly);
  }

  @Override
  public void close() throws IOException {
    listener.close();
    sockets.forEach(DroppingProxy::closeQuietly);
  }
}
