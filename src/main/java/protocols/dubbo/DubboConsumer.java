package protocols.dubbo;

import io.gatling.core.actor.ActorSystem;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.MetadataReportConfig;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.rpc.model.ApplicationModel;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.apache.dubbo.rpc.model.ModuleModel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.runtime.BoxedUnit;

/**
 * The Dubbo consumer of one simulation: a {@link FrameworkModel} of its own (so it shares nothing with
 * an embedded provider or with another simulation in the same JVM), created when the simulation builds
 * its first Dubbo request and destroyed when the simulation terminates. Each client is a module in it.
 */
final class DubboConsumer {

  private static final Logger LOG = LoggerFactory.getLogger(DubboConsumer.class);

  private final DubboProtocol protocol;
  private final Set<ServiceKey> preparedServices = ConcurrentHashMap.newKeySet();
  private FrameworkModel framework;
  private ApplicationModel application;
  private ModuleModel anchor;
  private DubboClient spare; // warmed up by prepare, handed to the first client the pool opens // Dubbo destroys an application whose last module goes: this one stays
  private ActorSystem hookedTo;
  private boolean closed;

  DubboConsumer(DubboProtocol protocol) {
    this.protocol = protocol;
  }

  String address() {
    return protocol.address();
  }

  /** A provider address of its own, not a registry's. */
  boolean isDirect() {
    return protocol.registry == null;
  }

  /**
   * Called while the simulation builds a request of {@code service}, before any user starts: starts the
   * consumer, ties its end to the simulation's, and opens the first client with its reference to the
   * service made. That loads and generates what Dubbo needs once per JVM and subscribes to the registry
   * (seconds on a cold, busy machine), which would otherwise stall the first calls and count as their
   * latency. With a registry it also checks that the registry answers: an unreachable one stops the
   * simulation with one clear error.
   */
  void prepare(ActorSystem simulation, ServiceKey service) {
    synchronized (this) {
      if (hookedTo != simulation) {
        hookedTo = simulation;
        simulation.registerOnTermination(
            () -> {
              close();
              return BoxedUnit.UNIT;
            });
      }
      application();
    }
    if (!preparedServices.add(service)) {
      return;
    }
    DubboClient warm;
    synchronized (this) {
      if (spare == null) {
        spare = newClient();
      }
      warm = spare;
    }
    try {
      warm.reference(service);
    } catch (IllegalStateException e) {
      if (protocol.registry == null) {
        return; // the calls will say what is wrong, as KOs
      }
      close();
      String cause = DubboSetup.startupCause(e.getCause() == null ? e : e.getCause());
      throw new DubboStartupException(
          "dubbo: the registry "
              + protocol.registry
              + (cause.startsWith("zookeeper not connected")
                  ? " did not answer within " + protocol.registryTimeout.toMillis() + " ms (" + cause + ")"
                  : " cannot be used: " + cause));
    }
  }

  /** A new client; the first one is the client {@link #prepare} warmed up, references made. */
  DubboClient openClient() {
    synchronized (this) {
      if (spare != null && spare.isOpen()) {
        DubboClient warm = spare;
        spare = null;
        return warm;
      }
    }
    return newClient();
  }

  private DubboClient newClient() {
    return new DubboClient(this, application().newModule());
  }

  private synchronized ApplicationModel application() {
    if (closed) {
      throw new IllegalStateException("the simulation is over: its Dubbo consumer is closed");
    }
    if (application == null) {
      DubboSetup.quietLogging();
      FrameworkModel created = new FrameworkModel();
      try {
        ApplicationModel app = created.newApplication();
        ApplicationConfig config = new ApplicationConfig(protocol.application);
        config.setQosEnable(protocol.qosPort != null);
        if (protocol.qosPort != null) {
          config.setQosPort(protocol.qosPort);
        }
        config.setRegisterConsumer(false);
        app.getApplicationConfigManager().setApplication(config);
        if (protocol.registry != null && protocol.discovery != DubboDiscovery.INTERFACE) {
          // where the consumer looks up which application provides an interface (its "service name mapping")
          MetadataReportConfig metadata = new MetadataReportConfig(protocol.registry);
          metadata.setTimeout((int) protocol.registryTimeout.toMillis());
          app.getApplicationConfigManager().addMetadataReport(metadata);
        }
        anchor = app.newModule();
        framework = created;
        application = app;
      } catch (RuntimeException e) {
        created.destroy();
        throw new DubboStartupException("dubbo: the consumer did not start: " + DubboSetup.startupCause(e));
      }
    }
    return application;
  }

  /** A reference as every client of this consumer makes it: no retries, no start-up check. */
  ReferenceConfig<Object> newReference(ModuleModel module, ServiceKey key) {
    ReferenceConfig<Object> reference = new ReferenceConfig<>(module);
    if (key.isGeneric()) {
      reference.setInterface(key.interfaceName());
      reference.setGeneric("true");
    } else {
      reference.setInterface(key.type());
    }
    if (key.group() != null) {
      reference.setGroup(key.group());
    }
    if (key.version() != null) {
      reference.setVersion(key.version());
    }
    reference.setTimeout((int) Math.min(Integer.MAX_VALUE, protocol.timeout.toMillis()));
    reference.setRetries(0); // a load test counts what it sends: a failed call is a KO, not a retry
    reference.setCheck(false); // no provider yet: calls fail (KO) until one appears
    reference.setConnections(1); // this client's own connection to each provider
    Map<String, String> parameters = new HashMap<>();
    // replies complete their call on the Netty thread that decoded them (the bridge hands the rest to the
    // user's event loop): Dubbo's default hands each to a cached pool, which grows with the replies
    // arriving at once (89 threads at 100 users, 138 at 5000)
    parameters.put("dispatcher", "direct");
    if (protocol.serialization != null) {
      parameters.put("serialization", protocol.serialization);
      parameters.put("prefer.serialization", protocol.serialization);
    }
    if (protocol.registry != null) {
      reference.setRegistry(DubboSetup.registry(protocol.registry, protocol.registryTimeout, protocol.discovery));
      reference.setProtocol(protocol.protocolName);
      parameters.put("migration.step", protocol.discovery.migrationStep());
    } else {
      DubboSetup.stayOnLoopbackFor(protocol.target.host());
      // no reconnect timer (once a minute per client): a client that cannot reach the provider is
      // replaced by the pool through the reconnect backoff. Dubbo's reconnect on send stays, so that a
      // refused connection says so: a client connects when its reference is made, and at most once more
      // at its first call before it is replaced
      parameters.put("reconnect", "false");
      reference.setUrl(protocol.protocolName + "://" + protocol.target);
    }
    reference.setParameters(parameters);
    return reference;
  }

  synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (framework != null) {
      try {
        framework.destroy();
      } catch (RuntimeException e) {
        LOG.debug("destroying the Dubbo consumer failed", e);
      }
      framework = null;
      application = null;
      anchor = null;
      spare = null;
    }
  }
}
