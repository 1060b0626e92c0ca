package protocols.motan;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that hand calls to Motan. Motan's Netty 4 client returns its {@code ResponseFuture} only
 * once the request is written to the socket (and connects first when a connection is down), so a call
 * is handed over here rather than made on a Gatling event loop: those loops never wait for Motan. No
 * thread waits for a response; these wait only for writes, and are few and shared by every Motan call
 * of the JVM.
 */
final class MotanSenders {

  static final int THREADS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());

  private static final ExecutorService EXECUTOR = create();

  private MotanSenders() {}

  static ExecutorService executor() {
    return EXECUTOR;
  }

  private static ExecutorService create() {
    AtomicInteger count = new AtomicInteger();
    ThreadPoolExecutor executor =
        new ThreadPoolExecutor(
            THREADS,
            THREADS,
            30,
            TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(),
            runnable -> {
              Thread thread = new Thread(runnable, "motan-sender-" + count.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
    executor.allowCoreThreadTimeOut(true);
    return executor;
  }
}
