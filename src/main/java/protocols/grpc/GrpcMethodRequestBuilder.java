package protocols.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.internal.Expressions;
import io.grpc.ManagedChannel;
import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Function;
import protocols.core.FailureDescriber;
import protocols.core.RpcCall;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcRequestBuilder;
import protocols.core.StreamKind;
import protocols.core.check.JsonView;

/**
 * A unary call of a method named by its full name, without generated code: the protocol's schema
 * ({@code reflection()}, {@code descriptorSet(...)}, {@code protoFiles(...)}) gives its types, the
 * request is JSON text with Gatling EL or a {@link DynamicMessage}, and the response a {@link
 * DynamicMessage} that {@code response(...)} and Gatling's {@code jsonPath(...)} check (the reply is
 * decoded only as far as a check reads it: {@link ReceivedMessage}). Immutable.
 */
public final class GrpcMethodRequestBuilder
    extends RpcRequestBuilder<
        GrpcMethodRequestBuilder, GrpcProtocol, ManagedChannel, GrpcMethodRequestBuilder.Payload, Object> {

  /** A request not yet typed: it becomes a message once the method's input type is known. */
  @FunctionalInterface
  public interface Payload {
    DynamicMessage build(Descriptor inputType) throws Exception;
  }

  private static final JsonFormat.Parser JSON_IN = JsonFormat.parser();

  private final String methodName;
  private final GrpcMetadata headers;
  private final String compression; // null: the protocol's

  GrpcMethodRequestBuilder(Common<Payload> common, String methodName, GrpcMetadata headers) {
    this(common, methodName, headers, null);
  }

  private GrpcMethodRequestBuilder(
      Common<Payload> common, String methodName, GrpcMetadata headers, String compression) {
    super(common);
    this.methodName = methodName;
    this.headers = headers;
    this.compression = compression;
  }

  /** This call's compression ({@code "gzip"} or {@code "identity"}), instead of the protocol's. */
  public GrpcMethodRequestBuilder compression(String compressor) {
    return new GrpcMethodRequestBuilder(
        common, methodName, headers, GrpcCompression.require(compressor, common.nameTemplate() + ".compression"));
  }

  @Override
  protected GrpcMethodRequestBuilder withCommon(Common<Payload> common) {
    return new GrpcMethodRequestBuilder(common, methodName, headers, compression);
  }

  /** The request as proto3 JSON; Gatling EL ({@code "{\"name\":\"#{name}\"}"}) is resolved per call. */
  public GrpcMethodRequestBuilder json(String jsonTemplate) {
    return payload(jsonPayload(jsonTemplate, "grpc(\"" + common.nameTemplate() + "\").json"));
  }

  /** The request built by a function of the session and the method's input type. */
  public GrpcMethodRequestBuilder message(BiFunction<Session, Descriptor, DynamicMessage> message) {
    return payload(messagePayload(message, "grpc(\"" + common.nameTemplate() + "\").message"));
  }

  /** A payload from JSON text with Gatling EL; shared with streams of methods named. */
  static Function<Session, Payload> jsonPayload(String jsonTemplate, String where) {
    if (jsonTemplate == null) {
      throw new IllegalArgumentException(where + ": the JSON is null");
    }
    if (!jsonTemplate.contains("#{")) {
      // no EL: the same message at every call, parsed once per input type (DynamicMessage is immutable)
      Map<Descriptor, DynamicMessage> parsed = new java.util.concurrent.ConcurrentHashMap<>();
      Payload same = type -> parsed.computeIfAbsent(type, t -> fromJson(jsonTemplate, t));
      return session -> same;
    }
    var json = Expressions.toStringExpression(jsonTemplate);
    return session -> {
      Validation<String> text = json.apply(session.asScala());
      if (((Object) text) instanceof Failure failure) {
        throw new IllegalArgumentException("the JSON's Gatling EL could not be resolved: " + failure.message());
      }
      String resolved = ((Success<String>) text).value();
      return type -> fromJson(resolved, type);
    };
  }

  /** A payload built by a function of the session and the input type; shared with streams. */
  static Function<Session, Payload> messagePayload(
      BiFunction<Session, Descriptor, DynamicMessage> message, String where) {
    if (message == null) {
      throw new IllegalArgumentException(where + ": the function is null");
    }
    return session -> type -> message.apply(session, type);
  }

  /** This call's deadline, instead of the protocol's. */
  public GrpcMethodRequestBuilder deadline(Duration deadline) {
    return timeout(deadline);
  }

  /** Metadata for this call; the value may use Gatling EL ({@code "#{token}"}). */
  public GrpcMethodRequestBuilder header(String key, String value) {
    return new GrpcMethodRequestBuilder(common, methodName, headers.with(key, value), compression);
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
    return JSON_VIEW;
  }

  /** A response as its canonical proto3 JSON tree, for Gatling's {@code jsonPath(...)}; a unary reply's from its bytes. */
  static final JsonView JSON_VIEW =
      response -> response instanceof ReceivedMessage received ? received.json() : ProtoJsonTree.of((MessageOrBuilder) response);

  @Override
  protected RpcCall<ManagedChannel, Payload, Object> call(GrpcProtocol protocol) {
    MethodDescriptor method;
    try {
      method = find(protocol, methodName, null, "method");
    } catch (Exception e) {
      // every call is a KO that says why: the schema could not be read or has no such method
      String reason = e.getMessage();
      return (channel, request, context) -> {
        throw new IllegalStateException(reason);
      };
    }
    Descriptor inputType = method.getInputType();
    RpcCall<ManagedChannel, DynamicMessage, ReceivedMessage> unary =
        GrpcUnaryRequestBuilder.unaryCall(
            GrpcServices.unaryMethod(method), headers.resolver(protocol), protocol, compression);
    @SuppressWarnings("unchecked") // a future of a reply is a future of the Object the checks take
    RpcCall<ManagedChannel, DynamicMessage, Object> replies = (RpcCall<ManagedChannel, DynamicMessage, Object>) (RpcCall<?, ?, ?>) unary;
    return (channel, request, context) -> replies.send(channel, typed(request, inputType, methodName), context);
  }

  /**
   * The method named in the protocol's schema, if it is of {@code kind} (null: unary); else an error
   * that says which verb calls it.
   */
  static MethodDescriptor find(GrpcProtocol protocol, String methodName, StreamKind kind, String verb)
      throws Exception {
    MethodDescriptor method = protocol.services().find(methodName);
    StreamKind actual = kindOf(method);
    if (actual != kind) {
      throw new IllegalArgumentException(
          "grpc method \"" + methodName + "\" is a " + (actual == null ? "unary" : actual.dslName()) + " method; "
              + verb + "(...) takes " + (kind == null ? "unary" : kind.dslName()) + " methods (use "
              + (actual == null ? "method" : actual.dslName()) + "(\"" + methodName + "\"))");
    }
    return method;
  }

  private static StreamKind kindOf(MethodDescriptor method) {
    if (method.isClientStreaming()) {
      return method.isServerStreaming() ? StreamKind.BIDI_STREAM : StreamKind.CLIENT_STREAM;
    }
    return method.isServerStreaming() ? StreamKind.SERVER_STREAM : null;
  }

  static DynamicMessage typed(Payload request, Descriptor inputType, String methodName) throws Exception {
    DynamicMessage message = request.build(inputType);
    if (message == null) {
      throw new IllegalArgumentException("the message function returned null");
    }
    if (!message.getDescriptorForType().getFullName().equals(inputType.getFullName())) {
      throw new IllegalArgumentException(
          "the message is a " + message.getDescriptorForType().getFullName() + "; " + methodName
              + " takes a " + inputType.getFullName());
    }
    return message;
  }

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Parses proto3 JSON; a failure names the field that does not fit and the type it expected. */
  static DynamicMessage fromJson(String json, Descriptor type) {
    DynamicMessage.Builder builder = DynamicMessage.newBuilder(type);
    try {
      JSON_IN.merge(json, builder);
      return builder.build();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "the JSON does not fit " + type.getFullName() + ": " + diagnose(json, type, e.getMessage()));
    } catch (com.google.protobuf.UninitializedMessageException e) {
      throw new IllegalArgumentException("the JSON does not fit " + type.getFullName() + ": " + e.getMessage());
    }
  }

  private static String diagnose(String json, Descriptor type, String whole) {
    JsonNode tree;
    try {
      tree = JSON.readTree(json);
    } catch (Exception e) {
      return "not JSON: " + e.getMessage();
    }
    if (tree == null || !tree.isObject()) {
      return "expected a JSON object, got " + (tree == null ? "nothing" : tree.getNodeType());
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> field = it.next();
      FieldDescriptor descriptor = type.findFieldByName(field.getKey());
      if (descriptor == null) {
        descriptor = type.getFields().stream().filter(f -> f.getJsonName().equals(field.getKey())).findFirst().orElse(null);
      }
      if (descriptor == null) {
        return "it has no field \"" + field.getKey() + "\" (fields: "
            + String.join(", ", type.getFields().stream().map(FieldDescriptor::getName).toList()) + ")";
      }
      try {
        JSON_IN.merge("{" + JSON.writeValueAsString(field.getKey()) + ":" + JSON.writeValueAsString(field.getValue()) + "}",
            DynamicMessage.newBuilder(type));
      } catch (Exception e) {
        return "field \"" + field.getKey() + "\" expects " + expected(descriptor) + ", got " + field.getValue()
            + " (" + e.getMessage() + ")";
      }
    }
    return whole;
  }

  private static String expected(FieldDescriptor field) {
    String kind =
        switch (field.getJavaType()) {
          case MESSAGE -> "a " + field.getMessageType().getFullName() + " object";
          case ENUM -> "a " + field.getEnumType().getFullName() + " name or number";
          default -> "a " + field.getType().name().toLowerCase();
        };
    return field.isMapField() ? "a map" : field.isRepeated() ? "a list of " + kind.substring(2) : kind;
  }
}
