package benchmark.bare;

import benchmark.BenchmarkMessages;
import benchmark.dubbo.DubboBenchmarkService;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.rpc.model.ApplicationModel;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.apache.dubbo.rpc.model.ModuleModel;
import protocols.core.HostAndPort;
import protocols.dubbo.DubboProtocolBuilder;
import protocols.dubbo.DubboSetup;

/**
 * Dubbo's {@link ReferenceConfig} proxy of {@link DubboBenchmarkService}, called through {@code
 * sayAsync} with the encoded request, as DubboSimulation calls it: {@code dubbo://} direct to the
 * provider, hessian2 (Dubbo's default), 10 s timeout, no retries. Each connection is a reference of its
 * own in a module of its own (Dubbo gives a reference with {@code connections=1} a connection no other
 * reference shares), as each client of the dubbo protocol is; references are used round-robin.
 */
final class DubboBareClient implements BareClient {

  private static final byte[] REQUEST = BenchmarkMessages.request().toByteArray();
  private static final int TIMEOUT_MILLIS = (int) DubboProtocolBuilder.DEFAULT_TIMEOUT.toMillis();

  /** One Dubbo application, in a framework model of its own, whose modules are the clients. */
  static final class Consumer implements BareClients {
    private final HostAndPort target;
    private final FrameworkModel framework = new FrameworkModel();
    private final ApplicationModel application;

    Consumer(HostAndPort target) {
      this.target = target;
      DubboSetup.quietLogging();
      DubboSetup.stayOnLoopbackFor(target.host()); // else Dubbo sends 127.0.0.1's calls out through the network interface
      try {
        application = framework.newApplication();
        ApplicationConfig config = new ApplicationConfig(DubboProtocolBuilder.DEFAULT_APPLICATION);
        config.setQosEnable(false);
        config.setRegisterConsumer(false);
        application.getApplicationConfigManager().setApplication(config);
        application.newModule(); // Dubbo destroys an application whose last module goes: this one stays
      } catch (RuntimeException e) {
        framework.destroy();
        throw new IllegalStateException("the Dubbo consumer did not start: " + DubboSetup.startupCause(e), e);
      }
    }

    @Override
    public BareClient open(int connections, boolean oneChainEach) {
      return new DubboBareClient(this, connections);
    }

    private ReferenceConfig<DubboBenchmarkService> reference(ModuleModel module) {
      ReferenceConfig<DubboBenchmarkService> reference = new ReferenceConfig<>(module);
      reference.setInterface(DubboBenchmarkService.class);
      reference.setUrl("dubbo://" + target);
      reference.setTimeout(TIMEOUT_MILLIS);
      reference.setRetries(0);
      reference.setCheck(false);
      reference.setConnections(1);
      return reference;
    }

    @Override
    public void close() {
      framework.destroy();
    }
  }

  private final List<ModuleModel> modules = new ArrayList<>();
  private final List<DubboBenchmarkService> services = new ArrayList<>();
  private final AtomicInteger next = new AtomicInteger();

  private DubboBareClient(Consumer consumer, int connections) {
    try {
      for (int i = 0; i < connections; i++) {
        ModuleModel module = consumer.application.newModule();
        modules.add(module);
        services.add(consumer.reference(module).get());
      }
    } catch (RuntimeException e) {
      close();
      throw new IllegalStateException(
          "no Dubbo reference to dubbo://" + consumer.target + ": " + DubboSetup.startupCause(e), e);
    }
  }

  @Override
  public CompletableFuture<Boolean> say() {
    try {
      return services
          .get(Math.floorMod(next.getAndIncrement(), services.size()))
          .sayAsync(REQUEST)
          .thenApply(reply -> BenchmarkMessages.OK.equals(BenchmarkMessages.field1(reply)));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public void close() {
    for (ModuleModel module : modules) {
      if (!module.isDestroyed()) {
        module.destroy();
      }
    }
  }
}
