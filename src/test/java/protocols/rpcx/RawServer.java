package protocols.rpcx;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A misbehaving "rpcx server" for tests: a loopback socket whose every connection runs a script (answer
 * garbage, hang up, stay silent). Not an rpcx implementation: it stands in for a broken peer.
 */
public final class RawServer implements AutoCloseable {

  /** What the server does with one accepted connection. */
  @FunctionalInterface
  public interface Script {
    void run(Socket socket) throws IOException;
  }

  private final ServerSocket socket;
  private final Thread acceptor;
  private final CopyOnWriteArrayList<Socket> accepted = new CopyOnWriteArrayList<>();
  private final AtomicInteger connections = new AtomicInteger();

  public RawServer(Script script) throws IOException {
    socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    acceptor =
        new Thread(
            () -> {
              while (!socket.isClosed()) {
                try {
                  Socket s = socket.accept();
                  accepted.add(s);
                  connections.incrementAndGet();
                  Thread t = new Thread(() -> {
                    try {
                      script.run(s);
                    } catch (IOException e) {
                      // the peer went away
                    }
                  }, "raw-server-connection");
                  t.setDaemon(true);
                  t.start();
                } catch (IOException e) {
                  return;
                }
              }
            },
            "raw-server");
    acceptor.setDaemon(true);
    acceptor.start();
  }

  public int port() {
    return socket.getLocalPort();
  }

  public String address() {
    return "127.0.0.1:" + port();
  }

  public int connections() {
    return connections.get();
  }

  /** Reads exactly {@code n} bytes (blocking), or fewer when the peer closes. */
  public static byte[] read(Socket s, int n) throws IOException {
    InputStream in = s.getInputStream();
    return in.readNBytes(n);
  }

  /** Reads one whole rpcx frame (prefix and body) and returns it. */
  public static byte[] readFrame(Socket s) throws IOException {
    byte[] prefix = read(s, 16);
    if (prefix.length < 16) {
      throw new IOException("closed");
    }
    int total = ((prefix[12] & 0xff) << 24) | ((prefix[13] & 0xff) << 16) | ((prefix[14] & 0xff) << 8) | (prefix[15] & 0xff);
    byte[] body = read(s, total);
    byte[] all = new byte[16 + body.length];
    System.arraycopy(prefix, 0, all, 0, 16);
    System.arraycopy(body, 0, all, 16, body.length);
    return all;
  }

  @Override
  public void close() throws IOException {
    socket.close();
    for (Socket s : accepted) {
      s.close();
    }
  }
}
