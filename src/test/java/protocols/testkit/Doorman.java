package protocols.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ConcurrentLinkedQueue;

/** A dead target that still listens: accepts every connection and closes it at once, noting when. */
public final class Doorman implements AutoCloseable {
  private final ServerSocket listener;
  /** System.nanoTime() of every accepted connection. */
  public final ConcurrentLinkedQueue<Long> accepted = new ConcurrentLinkedQueue<>();
  /** Runs on the doorman's thread after the first connection. */
  public volatile Runnable afterFirst = () -> {};

  public Doorman() throws IOException {
    this(0);
  }

  /** On a given port: where a real server was just stopped, to count the connections its clients make. */
  public Doorman(int port) throws IOException {
    listener = new ServerSocket(port, 4096, InetAddress.getLoopbackAddress());
    Thread thread = new Thread(this::serve, "doorman");
    thread.setDaemon(true);
    thread.start();
  }

  private void serve() {
    while (!listener.isClosed()) {
      try (Socket s = listener.accept()) {
        accepted.add(System.nanoTime());
        if (accepted.size() == 1) {
          afterFirst.run();
        }
      } catch (IOException closed) {
        return;
      }
    }
  }

  public int port() {
    return listener.getLocalPort();
  }

  @Override
  public void close() throws IOException {
    listener.close();
  }
}
