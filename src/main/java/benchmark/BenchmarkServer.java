package benchmark;

/** A running benchmark server of any framework, embedded in the current JVM. */
public interface BenchmarkServer extends AutoCloseable {

  int port();

  @Override
  void close() throws Exception;

  /** For a server's main: announce it, then serve until the process is stopped (Ctrl-C, SIGTERM). */
  static void serveUntilStopped(BenchmarkServer server, String announcement) throws InterruptedException {
    System.out.println(announcement);
    java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  try {
                    String lateness = ServiceTime.latenessSummary();
                    if (lateness != null) {
                      System.out.println(lateness);
                    }
                    server.close();
                  } catch (Exception e) {
                    System.err.println("stopping the server failed: " + e);
                  } finally {
                    stopped.countDown();
                  }
                }));
    stopped.await();
  }
}
