package benchmark;

/** A running benchmark server of any framework, embedded in the current JVM. */
public interface BenchmarkServer extends AutoCloseable {

  int port();

  @Override
  void close() throws Exception;
}
