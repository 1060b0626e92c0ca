package protocols.thrift;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.async.TAsyncClientManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads behind one protocol's connections: Thrift's selector threads ({@link
 * TAsyncClientManager}, each drives the I/O of many connections) and a {@link ThriftConnector} that
 * opens sockets without blocking, so that neither Gatling's threads nor a thread per virtual user ever
 * waits on the network. Shared by all pools of a protocol and stopped when the last one closes.
 */
final class ThriftRuntime {

  private static final Logger LOG = LoggerFactory.getLogger(ThriftRuntime.class);
  private final TAsyncClientManager[] managers;
  final ThriftConnector connector;
  private final AtomicInteger nextManager = new AtomicInteger();

  private ThriftRuntime(int selectorThreads) throws IOException {
    managers = new TAsyncClientManager[selectorThreads];
    try {
      for (int i = 0; i < selectorThreads; i++) {
        managers[i] = new TAsyncClientManager();
      }
    } catch (IOException e) {
      stopManagers();
      throw e;
    }
    try {
      connector = new ThriftConnector();
    } catch (IOException e) {
      stopManagers();
      throw e;
    }
  }

  /** The selector a new connection is bound to, round-robin. */
  TAsyncClientManager nextManager() {
    return managers[Math.floorMod(nextManager.getAndIncrement(), managers.length)];
  }

  private void stop() {
    connector.stop();
    stopManagers();
  }

  private void stopManagers() {
    for (TAsyncClientManager manager : managers) {
      if (manager != null) {
        manager.stop();
      }
    }
  }

  /** One protocol's runtime, started by its first pool and stopped when its last pool closes. */
  static final class Shared {
    private final int selectorThreads;
    private ThriftRuntime runtime;
    private int users;

    Shared(int selectorThreads) {
      this.selectorThreads = selectorThreads;
    }

    synchronized ThriftRuntime acquire() throws IOException {
      if (runtime == null) {
        runtime = new ThriftRuntime(selectorThreads);
        LOG.debug("started {} Thrift selector thread(s)", selectorThreads);
      }
      users++;
      return runtime;
    }

    synchronized void release(ThriftRuntime released) {
      if (released != runtime || users == 0) {
        return;
      }
      if (--users == 0) {
        runtime.stop();
        runtime = null;
      }
    }
  }
}
