package protocols.dubbo;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.dubbo.config.ReferenceConfig;
import org.apache.dubbo.rpc.model.ModuleModel;
import protocols.core.SelfConnectingClient;

/**
 * One client of the load test: a Dubbo module of its own, whose references (one per service it calls,
 * created on first use) each hold their own connection to each provider. Closing it closes them.
 */
public final class DubboClient extends SelfConnectingClient {

  private final DubboConsumer consumer;
  private final ModuleModel module;
  private final Map<ServiceKey, Object> references = new ConcurrentHashMap<>();

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

  @Override
  protected boolean isOpen() {
    return !module.isDestroyed();
  }

  /**
   * Dubbo's own reconnect timer is off for direct targets (once a minute per client, with no wait shared
   * between clients), so a call that cannot reach the provider (refused, dropped, or no connection to
   * send on) turns the client unusable: the pool closes it at its next use (destroying its module closes
   * its connection) and lets a new one connect when the reconnect backoff allows.
   */
  @Override
  protected boolean backsOff() {
    return consumer.isDirect();
  }

  @Override
  protected String describeUnreachable(Throwable cause) {
    return DubboFailures.describe(cause, "the call").message();
  }

  @Override
  public void close() {
    references.clear();
    if (!module.isDestroyed()) {
      module.destroy();
    }
  }
}
