package protocols.dubbo;

import java.util.concurrent.CompletionStage;
import protocols.core.CallContext;

/**
 * A call of a typed Dubbo interface: which method with which request, its checks and timeout. Immutable.
 *
 * @param <S> the service interface
 * @param <Req> what the payload builds from the session
 * @param <Res> the method's result
 */
public final class DubboServiceRequestBuilder<S, Req, Res>
    extends DubboRequestBuilder<DubboServiceRequestBuilder<S, Req, Res>, Req, Res> {

  /** Calls one method of the service's proxy and returns its future without waiting for it. */
  @FunctionalInterface
  public interface Invocation<S, Req, Res> {
    CompletionStage<Res> invoke(S service, Req request) throws Exception;
  }

  private final Class<S> type;
  private final Invocation<S, Req, Res> invocation;
  private final String description;

  DubboServiceRequestBuilder(
      Common<Req> common, ServiceKey service, Class<S> type, Invocation<S, Req, Res> invocation, String description) {
    super(common, service);
    this.type = type;
    this.invocation = invocation;
    this.description = description;
  }

  @Override
  protected DubboServiceRequestBuilder<S, Req, Res> withCommon(Common<Req> common) {
    return new DubboServiceRequestBuilder<>(common, service, type, invocation, description);
  }

  @Override
  CompletionStage<Res> invoke(DubboClient client, Req request, CallContext context) throws Exception {
    S proxy = client.reference(service);
    return invocation.invoke(proxy, request);
  }

  @Override
  String callName() {
    return description + " of " + service;
  }
}
