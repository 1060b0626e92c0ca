package protocols.grpc;

import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.internal.Expressions;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import protocols.core.FailureDescriber;
import protocols.core.RpcCall;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcRequestBuilder;
import scala.Function1;

/** A unary gRPC call: payload, deadline, metadata and checks. Immutable. */
public final class GrpcUnaryRequestBuilder<Req, Res>
    extends RpcRequestBuilder<GrpcUnaryRequestBuilder<Req, Res>, GrpcProtocol, ManagedChannel, Req, Res> {

  private record Header(Metadata.Key<String> key, Function1<Session, Validation<String>> value) {}

  private final MethodDescriptor<Req, Res> method;
  private final List<Header> headers;

  GrpcUnaryRequestBuilder(Common<Req> common, MethodDescriptor<Req, Res> method, List<Header> headers) {
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
    List<Header> all = new ArrayList<>(headers);
    all.add(new Header(GrpcHeaders.key(key), Expressions.toStringExpression(value)));
    return new GrpcUnaryRequestBuilder<>(common, method, List.copyOf(all));
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
    Metadata defaults = new Metadata();
    for (Map.Entry<String, String> header : protocol.headers.entrySet()) {
      defaults.put(GrpcHeaders.key(header.getKey()), header.getValue());
    }
    return (channel, request, context) -> {
      Metadata metadata = new Metadata();
      metadata.merge(defaults);
      for (Header header : headers) {
        Validation<String> value = header.value().apply(context.session().asScala());
        if (((Object) value) instanceof Failure failure) {
          throw new IllegalArgumentException(
              "header " + header.key().name() + " could not be resolved: " + failure.message());
        }
        metadata.put(header.key(), ((Success<String>) value).value());
      }
      ClientCall<Req, Res> call =
          channel.newCall(
              method,
              CallOptions.DEFAULT.withDeadlineAfter(
                  context.timeout().toNanos(), TimeUnit.NANOSECONDS));
      return UnaryCall.start(call, request, metadata);
    };
  }
}
