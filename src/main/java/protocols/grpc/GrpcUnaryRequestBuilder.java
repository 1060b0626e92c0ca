package protocols.grpc;

import com.google.protobuf.MessageLite;
import io.grpc.ClientCall;
import io.grpc.Status;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import java.time.Duration;
import protocols.core.FailureDescriber;
import protocols.core.RpcCall;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcRequestBuilder;

/** A unary gRPC call: payload, deadline, metadata and checks. Immutable. */
public final class GrpcUnaryRequestBuilder<Req, Res>
    extends RpcRequestBuilder<GrpcUnaryRequestBuilder<Req, Res>, GrpcProtocol, ManagedChannel, Req, Res> {

  private final MethodDescriptor<Req, Res> method;
  private final GrpcMetadata headers;
  private final String compression; // null: the protocol's

  GrpcUnaryRequestBuilder(Common<Req> common, MethodDescriptor<Req, Res> method, GrpcMetadata headers) {
    this(common, method, headers, null);
  }

  private GrpcUnaryRequestBuilder(
      Common<Req> common, MethodDescriptor<Req, Res> method, GrpcMetadata headers, String compression) {
    super(common);
    this.method = method;
    this.headers = headers;
    this.compression = compression;
  }

  /** This call's compression ({@code "gzip"} or {@code "identity"}), instead of the protocol's. */
  public GrpcUnaryRequestBuilder<Req, Res> compression(String compressor) {
    return new GrpcUnaryRequestBuilder<>(
        common, method, headers, GrpcCompression.require(compressor, common.nameTemplate() + ".compression"));
  }

  @Override
  protected GrpcUnaryRequestBuilder<Req, Res> withCommon(Common<Req> common) {
    return new GrpcUnaryRequestBuilder<>(common, method, headers, compression);
  }

  /** This call's deadline, instead of the protocol's. */
  public GrpcUnaryRequestBuilder<Req, Res> deadline(Duration deadline) {
    return timeout(deadline);
  }

  /** Metadata for this call; the value may use Gatling EL ({@code "#{token}"}). */
  public GrpcUnaryRequestBuilder<Req, Res> header(String key, String value) {
    return new GrpcUnaryRequestBuilder<>(common, method, headers.with(key, value), compression);
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
    return unaryCall(method, headers.resolver(protocol), protocol, compression);
  }

  /** Sends one unary call of {@code method}; shared with calls made without stubs. */
  static <Req, Res> RpcCall<ManagedChannel, Req, Res> unaryCall(
      MethodDescriptor<Req, Res> method,
      GrpcMetadata.Resolver metadata,
      GrpcProtocol protocol,
      String compression) {
    int maxOutbound = protocol.options.maxOutboundMessageSize();
    return (channel, request, context) -> {
      if (maxOutbound > 0
          && request instanceof MessageLite message
          && message.getSerializedSize() > maxOutbound) {
        // grpc-java cancels such a call without ever closing it (seen with 1.85): refuse it here
        throw Status.RESOURCE_EXHAUSTED
            .withDescription(
                "the request is " + message.getSerializedSize() + " bytes, over the maxOutboundMessageSize of "
                    + maxOutbound)
            .asRuntimeException();
      }
      ClientCall<Req, Res> call =
          channel.newCall(
              method,
              protocol.options.callOptions(context.timeout(), compression));
      return UnaryCall.start(call, request, metadata.resolve(context.session().asScala()));
    };
  }
}
