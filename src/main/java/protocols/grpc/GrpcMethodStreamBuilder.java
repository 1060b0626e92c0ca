package protocols.grpc;

import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.DynamicMessage;
import io.gatling.javaapi.core.Session;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.function.BiFunction;
import java.util.function.Function;
import protocols.core.FailureDescriber;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcStream;
import protocols.core.RpcStreamBuilder;
import protocols.core.RpcStreamOpener;
import protocols.core.StreamKind;
import protocols.core.StreamSendActionBuilder;
import protocols.core.check.JsonView;
import protocols.grpc.GrpcMethodRequestBuilder.Payload;

/**
 * A server, client or bidirectional stream of a method named by its full name, without generated
 * code: the protocol's schema gives its types, each message sent is JSON text with Gatling EL or a
 * {@link DynamicMessage}, and each message received a {@link DynamicMessage} that {@code
 * response(...)} and Gatling's {@code jsonPath(...)} check. The same stream actions as {@link
 * GrpcStreamBuilder}. Immutable.
 */
public final class GrpcMethodStreamBuilder
    extends RpcStreamBuilder<GrpcMethodStreamBuilder, GrpcProtocol, ManagedChannel, Payload, DynamicMessage> {

  private final String methodName;
  private final GrpcMetadata headers;

  GrpcMethodStreamBuilder(Spec spec, String methodName, GrpcMetadata headers) {
    super(spec);
    this.methodName = methodName;
    this.headers = headers;
  }

  @Override
  protected GrpcMethodStreamBuilder withSpec(Spec spec) {
    return new GrpcMethodStreamBuilder(spec, methodName, headers);
  }

  /** The whole stream's deadline, instead of the protocol's. */
  public GrpcMethodStreamBuilder deadline(Duration deadline) {
    return timeout(deadline);
  }

  /** Metadata sent when the stream opens; the value may use Gatling EL ({@code "#{token}"}). */
  public GrpcMethodStreamBuilder header(String key, String value) {
    return new GrpcMethodStreamBuilder(spec, methodName, headers.with(key, value));
  }

  /** Sends one message, proto3 JSON with Gatling EL ({@code "{\"lo\":{\"latitude\":#{lat}}}"}). */
  public StreamSendActionBuilder send(String jsonTemplate) {
    return send(GrpcMethodRequestBuilder.jsonPayload(jsonTemplate, spec.kind().dslName() + "(\"" + methodName + "\").send"));
  }

  /** Sends one message built by a function of the session and the method's input type. */
  public StreamSendActionBuilder send(BiFunction<Session, Descriptor, DynamicMessage> message) {
    Function<Session, Payload> payload =
        GrpcMethodRequestBuilder.messagePayload(message, spec.kind().dslName() + "(\"" + methodName + "\").send");
    return send(payload);
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
  protected JsonView jsonView() {
    return GrpcMethodRequestBuilder.JSON_VIEW;
  }

  @Override
  protected RpcStreamOpener<ManagedChannel, Payload, DynamicMessage> opener(GrpcProtocol protocol) {
    MethodDescriptor method;
    try {
      method = GrpcMethodRequestBuilder.find(protocol, methodName, spec.kind(), spec.kind().dslName());
    } catch (Exception e) {
      // every stream is a KO that says why: the schema could not be read, has no such method or another kind
      String reason = e.getMessage();
      return (channel, context, listener) -> {
        throw new IllegalStateException(reason);
      };
    }
    Descriptor inputType = method.getInputType();
    RpcStreamOpener<ManagedChannel, DynamicMessage, DynamicMessage> typed =
        GrpcStreamBuilder.opener(GrpcServices.grpcMethod(method), headers, protocol);
    return (channel, context, listener) -> new Typing(typed.open(channel, context, listener), inputType);
  }

  /** Types each message as it is sent; one that does not fit the input type cancels the stream, saying why. */
  private final class Typing implements RpcStream<Payload> {

    private final RpcStream<DynamicMessage> stream;
    private final Descriptor inputType;
    private boolean refused; // grpc-java refuses sends and half-closes after a cancel

    Typing(RpcStream<DynamicMessage> stream, Descriptor inputType) {
      this.stream = stream;
      this.inputType = inputType;
    }

    @Override
    public void send(Payload message) {
      if (refused) {
        return;
      }
      DynamicMessage typed;
      try {
        typed = GrpcMethodRequestBuilder.typed(message, inputType, methodName);
      } catch (Exception e) {
        refused = true;
        stream.cancel("the message was not sent: " + e.getMessage());
        return;
      }
      stream.send(typed);
    }

    @Override
    public boolean isReady() {
      return stream.isReady();
    }

    @Override
    public void halfClose() {
      if (!refused) {
        stream.halfClose();
      }
    }

    @Override
    public void cancel(String reason) {
      stream.cancel(reason);
    }

    @Override
    public void request(int messages) {
      stream.request(messages);
    }
  }
}
