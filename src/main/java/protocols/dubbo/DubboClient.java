package protocols.dubbo;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.rpc.model.ModuleModel;
import protocols.core.PooledClient;
import protocols.core.Reachability;

/**
 * One client of the load test: a Dubbo module of its own, whose references (one per service it calls,
 * created on first use) each hold their own connection to each provider. Closing it closes them.
 */
public final class DubboClient implements PooledClient {

  private final DubboConsumer consumer;
  private final ModuleModel module;
  private final Map<ServiceKey, Object> references = new ConcurrentHashMap<>();
  /** Whether the provider answered, and why a call could not reach it: the pool replaces the client then (see {@link #unreachable}). */
  private final Reachability reachability = new Reachability();

  DubboClient(DubboConsumer consumer, ModuleModel module) {
    this.consumer = consumer;
    this.module = module;
  }

  /** The proxy of a service (typed, or {@code GenericService} for a generic key), created once. */
  @SuppressWarnings("unchecked")
  <T> T reference(ServiceKey key) {
    Object proxy = references.get(key);
    if (proxy == null) {
      proxy = references.computeIfAbsent(key, k -> create(k));
    }
    return (T) proxy;
  }

  private Object create(ServiceKey key) {
    if (!isOpen()) {
      throw new IllegalStateException("the Dubbo client is closed");
    }
    ReferenceConfig<Object> reference = consumer.newReference(module, key);
    try {
      return reference.get();
    } catch (RuntimeException e) {
      try {
        reference.destroy();
      } catch (RuntimeException ignored) {
        // nothing was opened
      }
      throw new IllegalStateException(
          "no Dubbo reference to " + key + " at " + consumer.address() + ": " + DubboSetup.startupCause(e));
    }
  }

  boolean isOpen() {
    return !module.isDestroyed();
  }

  /** False once a call could not reach the provider, or the client is closed. */
  @Override
  public boolean isUsable() {
    return reachability.isReachable() && isOpen();
  }

  /** The provider answered a call (with a result or its own exception): the target is alive. */
  void hasBeenAnswered() {
    reachability.answered();
  }

  @Override
  public boolean answered() {
    return reachability.hasAnswered();
  }

  /**
   * A call could not reach the provider (refused, dropped, or no connection to send on). Dubbo's own
   * reconnect timer is off for direct targets (once a minute per client, with no wait shared between
   * clients), so the client turns unusable: the pool closes it at its next use (destroying its module
   * closes its connection) and lets a new one connect when the reconnect backoff allows. Direct
   * targets only: through a registry, no provider may mean none registered yet.
   */
  void unreachable(Throwable cause) {
    if (reachability.isReachable() && consumer.isDirect() && isOpen()) {
      // as the report reads it: the KOs of the backoff group by message
      reachability.unreachable(new IllegalStateException(DubboFailures.describe(cause, "the call").message(), cause));
    }
  }

  @Override
  public Throwable failedBeforeAnswering() {
    return reachability.failedBeforeAnswering();
  }

  @Override
  public void close() {
    references.clear();
    if (!module.isDestroyed()) {
      module.destroy();
    }
  }
}
