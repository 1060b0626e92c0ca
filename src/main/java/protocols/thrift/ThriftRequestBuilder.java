package protocols.thrift;

import org.apache.thrift.async.TAsyncClient;
import protocols.core.CallFailure;
import protocols.core.FailureDescriber;
import protocols.core.RpcCall;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcRequestBuilder;

/**
 * A call of one method of a generated Thrift service: payload, timeout and checks. Immutable.
 *
 * @param <S> the generated async client
 * @param <Req> the payload a virtual user builds
 * @param <Res> the method's result
 */
public final class ThriftRequestBuilder<S extends TAsyncClient, Req, Res>
    extends RpcRequestBuilder<ThriftRequestBuilder<S, Req, Res>, ThriftProtocol, ThriftPool, Req, Res> {

  private final ThriftService<S> service;
  private final ThriftMethod<S, Req, Res> method;

  ThriftRequestBuilder(Common<Req> common, ThriftService<S> service, ThriftMethod<S, Req, Res> method) {
    super(common);
    this.service = service;
    this.method = method;
  }

  @Override
  protected ThriftRequestBuilder<S, Req, Res> withCommon(Common<Req> common) {
    return new ThriftRequestBuilder<>(common, service, method);
  }

  @Override
  protected RpcProtocolKey<ThriftProtocol, ThriftPool> protocolKey() {
    return ThriftProtocol.KEY;
  }

  @Override
  protected RpcCall<ThriftPool, Req, Res> call(ThriftProtocol protocol) {
    return (pool, request, context) -> pool.call(service, method, request, context.timeout());
  }

  @Override
  protected FailureDescriber failureDescriber() {
    return failure ->
        failure instanceof ThriftCallException thrift
            ? new CallFailure(thrift.status(), thrift.getMessage())
            : FailureDescriber.DEFAULT.describe(failure);
  }
}
