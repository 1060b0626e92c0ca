package protocols.thrift;

import org.apache.thrift.async.TAsyncClient;

/** A named Thrift request whose service is not chosen yet: {@code thrift("say").service(...)}. */
public final class ThriftRequest {

  private final String requestName;

  ThriftRequest(String requestName) {
    this.requestName = requestName;
  }

  /**
   * The generated async client of the service to call: {@code Greeter.AsyncClient::new} (the
   * constructor every generated {@code AsyncClient} has).
   */
  public <S extends TAsyncClient> Service<S> service(ThriftService<S> service) {
    if (service == null) {
      throw new IllegalArgumentException(
          "thrift(\"" + requestName + "\").service: expected a generated async client such as Greeter.AsyncClient::new, got null");
    }
    return new Service<>(requestName, service);
  }

  /** A request whose service is chosen: now its method. */
  public static final class Service<S extends TAsyncClient> {
    private final String requestName;
    private final ThriftService<S> service;

    private Service(String requestName, ThriftService<S> service) {
      this.requestName = requestName;
      this.service = service;
    }

    /**
     * The method to call, such as {@code Greeter.AsyncClient::say}; see {@link ThriftMethod} for
     * methods of several arguments.
     */
    public <Req, Res> ThriftRequestBuilder<S, Req, Res> call(ThriftMethod<S, Req, Res> method) {
      if (method == null) {
        throw new IllegalArgumentException(
            "thrift(\"" + requestName + "\").call: expected a method of the async client such as Greeter.AsyncClient::say, got null");
      }
      return new ThriftRequestBuilder<>(
          protocols.core.RpcRequestBuilder.Common.named(requestName), service, method);
    }
  }
}
