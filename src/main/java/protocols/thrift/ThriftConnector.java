package protocols.thrift;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import protocols.core.HostAndPort;

/**
 * Opens sockets without blocking anybody: one selector thread per protocol finishes every pending
 * connect and fails those that exceed the connect timeout. (Thousands of users connecting at once,
 * as when a level of the staircase starts, must not queue behind a few blocking connects.)
 */
final class ThriftConnector {

  /** What to do with the connected channel, or with the reason it could not connect. */
  interface Done {
    void connected(SocketChannel channel);

    void failed(Exception reason);
  }

  private record Pending(HostAndPort target, long timeoutNanos, Done done) {}

  private record Connecting(SocketChannel channel, long deadlineNanos, Done done) {}

  private static final Logger LOG = LoggerFactory.getLogger(ThriftConnector.class);
  private static final AtomicInteger IDS = new AtomicInteger();
  private static final long TICK_MILLIS = 10;

  private final Selector selector;
  private final ConcurrentLinkedQueue<Pending> queue = new ConcurrentLinkedQueue<>();
  private final Thread thread;
  private volatile boolean running = true;
  private InetSocketAddress resolved; // only the selector thread resolves, once per target
  private HostAndPort resolvedFor;

  ThriftConnector() throws IOException {
    selector = Selector.open();
    thread = new Thread(this::run, "thrift-connector-" + IDS.incrementAndGet());
    thread.setDaemon(true);
    thread.start();
  }

  /** Starts connecting; {@code done} is called later, on the connector's thread. */
  void connect(HostAndPort target, Duration timeout, Done done) {
    if (!running) {
      done.failed(new IOException("the Thrift connector is stopped: the simulation is over"));
      return;
    }
    queue.add(new Pending(target, timeout.toNanos(), done));
    selector.wakeup();
  }

  void stop() {
    running = false;
    selector.wakeup();
  }

  private void run() {
    try {
      while (running) {
        selector.select(TICK_MILLIS);
        finishConnects();
        expire(false);
        startPending();
      }
    } catch (IOException | ClosedSelectorException e) {
      LOG.error("the Thrift connector stopped", e);
    } finally {
      running = false;
      expire(true);
      Pending pending;
      while ((pending = queue.poll()) != null) {
        pending.done().failed(new IOException("the Thrift connector is stopped: the simulation is over"));
      }
      try {
        selector.close();
      } catch (IOException ignored) {
        // nothing left to release
      }
    }
  }

  private void startPending() {
    Pending pending;
    while ((pending = queue.poll()) != null) {
      SocketChannel channel = null;
      try {
        channel = SocketChannel.open();
        channel.configureBlocking(false);
        if (channel.connect(address(pending.target()))) {
          pending.done().connected(channel);
        } else {
          channel.register(
              selector,
              SelectionKey.OP_CONNECT,
              new Connecting(channel, System.nanoTime() + pending.timeoutNanos(), pending.done()));
        }
      } catch (IOException | RuntimeException e) {
        closeQuietly(channel);
        pending.done().failed(e instanceof IOException io ? io : new IOException(e.toString(), e));
      }
    }
  }

  private InetSocketAddress address(HostAndPort target) {
    if (!target.equals(resolvedFor) || resolved.isUnresolved()) {
      resolved = new InetSocketAddress(target.host(), target.port());
      resolvedFor = target;
    }
    return resolved;
  }

  private void finishConnects() {
    Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
    while (keys.hasNext()) {
      SelectionKey key = keys.next();
      keys.remove();
      Connecting connecting = (Connecting) key.attachment();
      try {
        if (connecting.channel().finishConnect()) {
          key.cancel();
          connecting.done().connected(connecting.channel());
        }
      } catch (IOException | RuntimeException e) {
        key.cancel();
        closeQuietly(connecting.channel());
        connecting.done().failed(e instanceof IOException io ? io : new IOException(e.toString(), e));
      }
    }
  }

  /** Fails the connects past their deadline (all of them when stopping). */
  private void expire(boolean all) {
    if (selector.keys().isEmpty()) {
      return;
    }
    long now = System.nanoTime();
    for (SelectionKey key : selector.keys()) {
      if (!key.isValid()) {
        continue;
      }
      Connecting connecting = (Connecting) key.attachment();
      if (all || now - connecting.deadlineNanos() >= 0) {
        key.cancel();
        closeQuietly(connecting.channel());
        connecting.done().failed(all
            ? new IOException("the Thrift connector is stopped: the simulation is over")
            : new SocketTimeoutException("connect timed out"));
      }
    }
  }

  private static void closeQuietly(SocketChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // nothing left to do with it
      }
    }
  }
}
