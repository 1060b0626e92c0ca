package protocols.grpc;

import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import java.time.Duration;
import protocols.core.FailureDescriber;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcStreamBuilder;
import protocols.core.RpcStreamOpener;

/**
 * A gRPC server, client or bidirectional stream of any {@link MethodDescriptor}: deadline, metadata,
 * checks, and the actions that drive it. Immutable.
 */
public final class GrpcStreamBuilder<Req, Res>
    extends RpcStreamBuilder<GrpcStreamBuilder<Req, Res>, GrpcProtocol, ManagedChannel, Req, Res> {

  private final MethodDescriptor<Req, Res> method;
  private final GrpcMetadata headers;

  GrpcStreamBuilder(Spec spec, MethodDescriptor<Req, Res> method, GrpcMetadata headers) {
    super(spec);
    this.method = method;
    this.headers = headers;
  }

  @Override
  protected GrpcStreamBuilder<Req, Res> withSpec(Spec spec) {
    return new GrpcStreamBuilder<>(spec, method, headers);
  }

  /** The whole stream's deadline, instead of the protocol's. */
  public GrpcStreamBuilder<Req, Res> deadline(Duration deadline) {
    return timeout(deadline);
  }

  /** Metadata sent when the stream opens; the value may use Gatling EL ({@code "#{token}"}). */
  public GrpcStreamBuilder<Req, Res> header(String key, String value) {
    return new GrpcStreamBuilder<>(spec, method, headers.with(key, value));
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
  protected RpcStreamOpener<ManagedChannel, Req, Res> opener(GrpcProtocol protocol) {
    return opener(method, headers, protocol);
  }

  /** Opens streams of {@code method}; shared with streams of methods named without stubs. */
  static <Req, Res> RpcStreamOpener<ManagedChannel, Req, Res> opener(
      MethodDescriptor<Req, Res> method, GrpcMetadata headers, GrpcProtocol protocol) {
    GrpcMetadata.Resolver metadata = headers.resolver(protocol);
    return (channel, context, listener) ->
        GrpcStream.start(
            channel.newCall(
                method,
                protocol.options.callOptions(context.timeout(), null)),
            metadata.resolve(context.session().asScala()),
            listener);
  }
}
