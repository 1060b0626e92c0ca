package protocols.motan;

import protocols.core.RpcRequestBuilder;

/** A named request of a Motan service whose method is not chosen yet. */
public final class MotanServiceRequest<S> {

  private final String requestName;
  private final Class<S> service;

  MotanServiceRequest(String requestName, Class<S> service) {
    this.requestName = requestName;
    this.service = service;
  }

  /**
   * The call: an {@code ...Async} method of the service, for example {@code
   * .call(BenchmarkServiceAsync::sayAsync, byte[].class)}; {@code responseType} is the synchronous
   * method's result type (a primitive result comes as its wrapper: {@code int.class} or {@code
   * Integer.class}).
   */
  public <Req, Res> MotanRequestBuilder<S, Req, Res> call(MotanMethod<S, Req> method, Class<Res> responseType) {
    if (method == null || responseType == null) {
      throw new IllegalArgumentException(
          "motan(\"" + requestName + "\").call: expected a method such as Service::sayAsync and its result type, got "
              + method + ", " + responseType);
    }
    return new MotanRequestBuilder<>(RpcRequestBuilder.Common.named(requestName), service, method, responseType);
  }
}
