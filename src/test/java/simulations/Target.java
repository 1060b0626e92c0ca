package simulations;

import benchmark.BenchmarkServer;
import benchmark.LoadSettings;
import protocols.core.HostAndPort;

/**
 * Where a simulation sends its calls: {@code -Dtarget}, or else a benchmark server it starts itself on
 * a free loopback port and stops when the simulation ends.
 */
public final class Target implements AutoCloseable {

  /** Starts one framework's benchmark server. */
  @FunctionalInterface
  public interface Embedded {
    BenchmarkServer start(LoadSettings settings) throws Exception;
  }

  private final HostAndPort address;
  private final BenchmarkServer server;

  private Target(HostAndPort address, BenchmarkServer server) {
    this.address = address;
    this.server = server;
  }

  /** No address at all: the protocol finds its servers itself (in a registry, say). */
  public static Target none() {
    return new Target(null, null);
  }

  public static Target of(LoadSettings settings, Embedded embedded) {
    if (!settings.embedded()) {
      return new Target(settings.target(), null);
    }
    try {
      BenchmarkServer server = embedded.start(settings);
      return new Target(new HostAndPort("127.0.0.1", server.port()), server);
    } catch (Exception e) {
      throw new IllegalStateException("the embedded benchmark server did not start: " + e, e);
    }
  }

  public HostAndPort address() {
    return address;
  }

  @Override
  public void close() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Override
  public String toString() {
    return address == null ? "servers found by the protocol" : server == null ? address.toString() : address + " (embedded)";
  }
}
