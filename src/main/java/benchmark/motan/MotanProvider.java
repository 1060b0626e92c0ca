package benchmark.motan;

import benchmark.BenchmarkServer;
import com.weibo.api.motan.common.MotanConstants;
import com.weibo.api.motan.config.ProtocolConfig;
import com.weibo.api.motan.config.RegistryConfig;
import com.weibo.api.motan.config.ServiceConfig;
import com.weibo.api.motan.util.MotanSwitcherUtil;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import protocols.motan.MotanRegistry;

/**
 * One Motan service exported without a registry (Motan's {@code local} registry) or registered in one
 * ({@link Options#registry}), as a provider process or a test starts it. Motan 1.2 binds its server to
 * every interface of the machine.
 *
 * <pre>{@code
 * try (MotanProvider<Calculator> provider =
 *     MotanProvider.export(Calculator.class, new CalculatorImpl(), MotanProvider.options())) { ... }
 * }</pre>
 */
public final class MotanProvider<T> implements BenchmarkServer {

  /**
   * How a provider is exported: port (0 picks a free one), group, version, worker pool, and the registry
   * it registers in ({@code null}: none).
   */
  public record Options(
      int port, String group, String version, int maxWorkerThreads, int workerQueueSize, String registry) {

    public Options port(int port) {
      return new Options(port, group, version, maxWorkerThreads, workerQueueSize, registry);
    }

    public Options group(String group) {
      return new Options(port, group, version, maxWorkerThreads, workerQueueSize, registry);
    }

    public Options version(String version) {
      return new Options(port, group, version, maxWorkerThreads, workerQueueSize, registry);
    }

    /** Motan runs every call on a worker pool of at most this many threads (Motan's default: 200). */
    public Options workers(int maxWorkerThreads, int workerQueueSize) {
      return new Options(port, group, version, maxWorkerThreads, workerQueueSize, registry);
    }

    /**
     * Registers the provider in a Motan registry, {@code zookeeper://host:port} (needs {@code
     * motan-registry-zookeeper}); clients then find it there.
     */
    public Options registry(String registryUrl) {
      MotanRegistry.parse(registryUrl, "motan provider registry");
      return new Options(port, group, version, maxWorkerThreads, workerQueueSize, registryUrl.trim());
    }
  }

  /** Motan's defaults: group {@code default_rpc}, version {@code 1.0}, 200 workers, no queue, no registry. */
  public static Options options() {
    return new Options(0, "default_rpc", "1.0", 200, 0, null);
  }

  private final ServiceConfig<T> service;
  private final int port;

  private MotanProvider(ServiceConfig<T> service, int port) {
    this.service = service;
    this.port = port;
  }

  public static <T> MotanProvider<T> export(Class<T> type, T implementation, Options options) {
    if (options.port() < 0 || options.port() > 65535) {
      throw new IllegalArgumentException("Motan provider port must be 0-65535, got " + options.port());
    }
    RegistryConfig registry = new RegistryConfig();
    if (options.registry() == null) {
      registry.setId("local");
      registry.setName("local");
      registry.setRegProtocol(MotanConstants.REGISTRY_PROTOCOL_LOCAL);
    } else {
      MotanRegistry url = MotanRegistry.parse(options.registry(), "motan provider registry");
      registry.setId(url.protocol());
      registry.setName(url.protocol());
      registry.setRegProtocol(url.protocol());
      registry.setAddress(url.address());
    }

    ProtocolConfig protocol = new ProtocolConfig();
    protocol.setId(MotanConstants.PROTOCOL_MOTAN);
    protocol.setName(MotanConstants.PROTOCOL_MOTAN);
    protocol.setMaxWorkerThread(options.maxWorkerThreads());
    protocol.setMinWorkerThread(Math.min(20, options.maxWorkerThreads()));
    protocol.setWorkerQueueSize(options.workerQueueSize());

    ServiceConfig<T> service = new ServiceConfig<>();
    service.setInterface(type);
    service.setRef(implementation);
    service.setRegistry(registry);
    service.setProtocol(protocol);
    service.setGroup(options.group());
    service.setVersion(options.version());
    service.setExport(MotanConstants.PROTOCOL_MOTAN + ":" + options.port());
    service.export();
    // a provider answers (and a registry lists it as available) only once the heartbeat switcher says it is alive
    MotanSwitcherUtil.setSwitcherValue(MotanConstants.REGISTRY_HEARTBEAT_SWITCHER, true);
    int port = service.getExporters().get(0).getProvider().getUrl().getPort();
    return new MotanProvider<>(service, port);
  }

  @Override
  public int port() {
    return port;
  }

  /**
   * Unexports the service and waits (up to 5 s) until its port refuses connections, so that a provider
   * can be started again on the same port at once.
   */
  @Override
  public void close() throws InterruptedException {
    service.unexport();
    long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (accepts(port) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
  }

  private static boolean accepts(int port) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
