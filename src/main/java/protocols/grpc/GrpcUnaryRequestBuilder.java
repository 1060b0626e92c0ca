package protocols.grpc;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import protocols.core.FailureDescriber;
import protocols.core.RpcCall;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcRequestBuilder;

/** A unary gRPC call: payload, deadline, metadata and checks. Immutable. */
public final class GrpcUnaryRequestBuilder<Req, Res>
    extends RpcRequestBuilder<GrpcUnaryRequestBuilder<Req, Res>, GrpcProtocol, ManagedChannel, Req, Res> {

  private final MethodDescriptor<Req, Res> method;
  private final GrpcMetadata headers;

  GrpcUnaryRequestBuilder(Common<Req> common, MethodDescriptor<Req, Res> method, GrpcMetadata headers) {
    super(common);
    this.method = method;
    this.headers = headers;
  }

  @Override
  protected GrpcUnaryRequestBuilder<Req, Res> withCommon(Common<Req> common) {
    return new GrpcUnaryRequestBuilder<>(common, method, headers);
  }

  /** This call's deadline, instead of the protocol's. */
  public GrpcUnaryRequestBuilder<Req, Res> deadline(Duration deadline) {
    return timeout(deadline);
  }

  /** Metadata for this call; the value may use Gatling EL ({@code "#{token}"}). */
  public GrpcUnaryRequestBuilder<Req, Res> header(String key, String value) {
    return new GrpcUnaryRequestBuilder<>(common, method, headers.with(key, value));
  }

  @Override
  protected RpcProtocolKey<GrpcProtocol, ManagedChannel> protocolKey() {
    return GrpcProtocol.KEY;
  }

  @Override
  protected FailureDescriber failureDescriber() {
    return GrpcFailures::describe;
  }

  @Override
  protected RpcCall<ManagedChannel, Req, Res> call(GrpcProtocol protocol) {
    return unaryCall(method, headers.resolver(protocol));
  }

  /** Sends one unary call of {@code method}; shared with calls made without stubs. */
  static <Req, Res> RpcCall<ManagedChannel, Req, Res> unaryCall(
      MethodDescriptor<Req, Res> method, GrpcMetadata.Resolver metadata) {
    return (channel, request, context) -> {
      ClientCall<Req, Res> call =
          channel.newCall(
              method,
              CallOptions.DEFAULT.withDeadlineAfter(
                  context.timeout().toNanos(), TimeUnit.NANOSECONDS));
      return UnaryCall.start(call, request, metadata.resolve(context.session().asScala()));
    };
  }
}
