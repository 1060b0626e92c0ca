package protocols.motan;

import com.weibo.api.motan.common.MotanConstants;
import com.weibo.api.motan.exception.MotanBizException;
import com.weibo.api.motan.rpc.Future;
import com.weibo.api.motan.rpc.ResponseFuture;
import com.weibo.api.motan.rpc.RpcContext;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import protocols.core.FailureDescriber;
import protocols.core.RpcCall;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcRequestBuilder;

/**
 * A Motan call through a service's asynchronous interface: payload, timeout and checks. Immutable.
 *
 * <p>The call is handed to a Motan sender thread (see {@link MotanSenders}), which invokes the {@code
 * ...Async} method and adds a listener to the {@link ResponseFuture} it returns; the listener completes
 * the call on Motan's I/O thread. Nothing waits for the response.
 */
public final class MotanRequestBuilder<S, Req, Res>
    extends RpcRequestBuilder<MotanRequestBuilder<S, Req, Res>, MotanProtocol, MotanClient, Req, Res> {

  private static final Map<Class<?>, Class<?>> WRAPPERS =
      Map.of(
          boolean.class, Boolean.class,
          byte.class, Byte.class,
          char.class, Character.class,
          short.class, Short.class,
          int.class, Integer.class,
          long.class, Long.class,
          float.class, Float.class,
          double.class, Double.class,
          void.class, Void.class);

  private final Class<S> service;
  private final MotanMethod<S, Req> method;
  private final Class<Res> responseType;

  MotanRequestBuilder(Common<Req> common, Class<S> service, MotanMethod<S, Req> method, Class<Res> responseType) {
    super(common);
    this.service = service;
    this.method = method;
    this.responseType = responseType;
  }

  @Override
  protected MotanRequestBuilder<S, Req, Res> withCommon(Common<Req> common) {
    return new MotanRequestBuilder<>(common, service, method, responseType);
  }

  @Override
  protected RpcProtocolKey<MotanProtocol, MotanClient> protocolKey() {
    return MotanProtocol.KEY;
  }

  @Override
  protected FailureDescriber failureDescriber() {
    return MotanFailures::describe;
  }

  @Override
  protected RpcCall<MotanClient, Req, Res> call(MotanProtocol protocol) {
    Class<?> expected = WRAPPERS.getOrDefault(responseType, responseType);
    return (client, request, context) -> {
      CompletableFuture<Res> result = new CompletableFuture<>();
      Duration timeout = context.timeout();
      MotanSenders.executor().execute(() -> send(client, request, timeout, expected, result));
      return result;
    };
  }

  private void send(
      MotanClient client, Req request, Duration timeout, Class<?> expected, CompletableFuture<Res> result) {
    if (result.isDone()) {
      return; // the bridge gave up on this call while it waited for a sender
    }
    ResponseFuture future;
    try {
      // Motan copies the context's attachments into the request; M_tmo is its per-request timeout
      RpcContext.getContext().setRpcAttachment(MotanConstants.M2_TIMEOUT, String.valueOf(timeout.toMillis()));
      future = method.invoke(client.service(service), request);
    } catch (Throwable e) {
      noteFailure(client, e);
      result.completeExceptionally(e);
      return;
    } finally {
      RpcContext.destroy();
    }
    if (future == null) {
      result.completeExceptionally(
          new IllegalStateException(
              "the call returned no ResponseFuture: call an ...Async method of " + service.getName()));
      return;
    }
    future.addListener(done -> complete(client, done, timeout, expected, result));
  }

  /** For the reconnect backoff: the provider's own exception is an answer, no provider is not. */
  private static void noteFailure(MotanClient client, Throwable failure) {
    if (failure instanceof MotanBizException) {
      client.hasBeenAnswered();
    } else if (failure != null && "UNAVAILABLE".equals(MotanFailures.describe(failure).status())) {
      client.unreachable(failure);
    }
  }

  @SuppressWarnings("unchecked")
  private static <Res> void complete(
      MotanClient client, Future done, Duration timeout, Class<?> expected, CompletableFuture<Res> result) {
    if (done.isCancelled()) {
      // Motan's timeout monitor cancels calls whose request timeout passed
      result.completeExceptionally(new MotanTimeoutException(timeout, done.getException()));
      return;
    }
    if (!done.isSuccess()) {
      noteFailure(client, done.getException());
      result.completeExceptionally(done.getException());
      return;
    }
    client.hasBeenAnswered();
    Object value;
    try {
      value = done.getValue(); // done: never waits; deserializes into the method's result type
    } catch (RuntimeException e) {
      result.completeExceptionally(e);
      return;
    }
    if (value != null && !expected.isInstance(value)) {
      result.completeExceptionally(
          new ClassCastException(
              "the provider returned a " + value.getClass().getName() + ", not the " + expected.getName() + " the request expects"));
      return;
    }
    result.complete((Res) value);
  }
}
