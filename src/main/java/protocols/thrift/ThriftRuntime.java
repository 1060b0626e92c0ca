package protocols.thrift;

import java.io.IOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.thrift.async.TAsyncClientManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The threads behind one protocol's connections: Thrift's selector threads ({@link
 * TAsyncClientManager}, each drives the I/O of many connections) and two connector threads that open
 * sockets with the connect timeout, so that neither Gatling's threads nor a thread per virtual user
 * ever waits on the network. Shared by all pools of a protocol and stopped when the last one closes.
 */
final class ThriftRuntime {

  private static final Logger LOG = LoggerFactory.getLogger(ThriftRuntime.class);
  private static final AtomicInteger CONNECTOR_IDS = new AtomicInteger();

  private final TAsyncClientManager[] managers;
  private final ThreadPoolExecutor connector;
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
    connector =
        new ThreadPoolExecutor(
            2,
            2,
            5,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            runnable -> {
              Thread thread = new Thread(runnable, "thrift-connector-" + CONNECTOR_IDS.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    connector.allowCoreThreadTimeOut(true);
  }

  /** The selector a new connection is bound to, round-robin. */
  TAsyncClientManager nextManager() {
    return managers[Math.floorMod(nextManager.getAndIncrement(), managers.length)];
  }

  void connect(Runnable task) {
    connector.execute(task);
  }

  private void stop() {
    connector.shutdownNow();
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
