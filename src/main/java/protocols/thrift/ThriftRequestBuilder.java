package protocols.thrift;

import org.apache.thrift.async.TAsyncClient;
import protocols.core.FailureDescriber;
import protocols.core.RpcCall;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcRequestBuilder;
import protocols.thrift.client.ThriftConnection;

/**
 * A call of one method of a generated Thrift service: payload, timeout and checks. Immutable.
 *
 * @param <S> the generated async client
 * @param <Req> the payload a virtual user builds
 * @param <Res> the method's result
 */
public final class ThriftRequestBuilder<S extends TAsyncClient, Req, Res>
    extends RpcRequestBuilder<ThriftRequestBuilder<S, Req, Res>, ThriftProtocol, ThriftConnection, Req, Res> {

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
  protected RpcProtocolKey<ThriftProtocol, ThriftConnection> protocolKey() {
    return ThriftProtocol.KEY;
  }

  @Override
  protected RpcCall<ThriftConnection, Req, Res> call(ThriftProtocol protocol) {
    ThriftEncoding encoding = protocol.client.encoding();
    return (connection, request, context) ->
        GeneratedCalls.send(connection, encoding, service, method, request, context.timeout());
  }

  @Override
  protected FailureDescriber failureDescriber() {
    return ThriftFailures.INSTANCE;
  }
}
