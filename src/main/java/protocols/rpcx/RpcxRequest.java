package protocols.rpcx;

/** A named rpcx request whose target method is not chosen yet: {@code rpcx("say").call("Hello", "Say")}. */
public final class RpcxRequest {

  private final String requestName;

  RpcxRequest(String requestName) {
    this.requestName = requestName;
  }

  /** A call of {@code method} of the service registered as {@code servicePath}. */
  public RpcxCall call(String servicePath, String method) {
    if (servicePath == null || servicePath.isEmpty() || method == null || method.isEmpty()) {
      throw new IllegalArgumentException(
          "rpcx(\""
              + requestName
              + "\").call: expected a service path and a method such as (\"Hello\", \"Say\"), got ("
              + servicePath
              + ", "
              + method
              + ")");
    }
    return new RpcxCall(requestName, servicePath, method);
  }
}
