package protocols.grpc;

import io.grpc.MethodDescriptor;
import io.grpc.MethodDescriptor.MethodType;
import protocols.core.RpcRequestBuilder;
import protocols.core.RpcStreamBuilder;
import protocols.core.StreamKind;

/** A named gRPC request whose method is not chosen yet. */
public final class GrpcRequest {

  private final String requestName;

  GrpcRequest(String requestName) {
    this.requestName = requestName;
  }

  /** A unary call of {@code method}, such as the generated {@code HelloGrpc.getSayMethod()}. */
  public <Req, Res> GrpcUnaryRequestBuilder<Req, Res> unary(MethodDescriptor<Req, Res> method) {
    require(method, MethodType.UNARY, "unary");
    return new GrpcUnaryRequestBuilder<>(RpcRequestBuilder.Common.named(requestName), method, GrpcMetadata.NONE);
  }

  /**
   * A unary call of a method named by its full name ({@code "helloworld.Greeter/SayHello"}), without
   * generated code: its types come from the protocol's schema ({@code reflection()},
   * {@code descriptorSet(...)} or {@code protoFiles(...)}); the request is {@code .json(...)} or
   * {@code .message(...)}.
   */
  public GrpcMethodRequestBuilder method(String fullMethodName) {
    requireFullName(fullMethodName, "method");
    return new GrpcMethodRequestBuilder(
        RpcRequestBuilder.Common.named(requestName), fullMethodName, GrpcMetadata.NONE);
  }

  /** A server stream: one request, sent by {@code send(...)}, which opens it; many replies. */
  public <Req, Res> GrpcStreamBuilder<Req, Res> serverStream(MethodDescriptor<Req, Res> method) {
    return stream(method, MethodType.SERVER_STREAMING, StreamKind.SERVER_STREAM);
  }

  /** A client stream: {@code start()}, many {@code send(...)}, {@code halfClose()}; one reply. */
  public <Req, Res> GrpcStreamBuilder<Req, Res> clientStream(MethodDescriptor<Req, Res> method) {
    return stream(method, MethodType.CLIENT_STREAMING, StreamKind.CLIENT_STREAM);
  }

  /** A bidirectional stream: {@code start()}, then messages both ways. */
  public <Req, Res> GrpcStreamBuilder<Req, Res> bidiStream(MethodDescriptor<Req, Res> method) {
    return stream(method, MethodType.BIDI_STREAMING, StreamKind.BIDI_STREAM);
  }

  /**
   * A server stream of a method named by its full name ({@code "routeguide.RouteGuide/ListFeatures"}),
   * typed by the protocol's schema: {@code send(json)} opens it; every reply is a {@code DynamicMessage}.
   */
  public GrpcMethodStreamBuilder serverStream(String fullMethodName) {
    return named(fullMethodName, StreamKind.SERVER_STREAM);
  }

  /** A client stream of a method named by its full name, typed by the protocol's schema. */
  public GrpcMethodStreamBuilder clientStream(String fullMethodName) {
    return named(fullMethodName, StreamKind.CLIENT_STREAM);
  }

  /** A bidirectional stream of a method named by its full name, typed by the protocol's schema. */
  public GrpcMethodStreamBuilder bidiStream(String fullMethodName) {
    return named(fullMethodName, StreamKind.BIDI_STREAM);
  }

  private GrpcMethodStreamBuilder named(String fullMethodName, StreamKind kind) {
    requireFullName(fullMethodName, kind.dslName());
    return new GrpcMethodStreamBuilder(RpcStreamBuilder.Spec.named(requestName, kind), fullMethodName, GrpcMetadata.NONE);
  }

  private void requireFullName(String fullMethodName, String verb) {
    if (fullMethodName == null || !fullMethodName.matches("[^/]+/[^/]+")) {
      throw new IllegalArgumentException(
          "grpc(\"" + requestName + "\")." + verb + ": expected a full method name package.Service/Method, got " + fullMethodName);
    }
  }

  private <Req, Res> GrpcStreamBuilder<Req, Res> stream(
      MethodDescriptor<Req, Res> method, MethodType type, StreamKind kind) {
    require(method, type, kind.dslName());
    return new GrpcStreamBuilder<>(RpcStreamBuilder.Spec.named(requestName, kind), method, GrpcMetadata.NONE);
  }

  private void require(MethodDescriptor<?, ?> method, MethodType type, String verb) {
    if (method == null) {
      throw new IllegalArgumentException("grpc(\"" + requestName + "\")." + verb + ": method is null");
    }
    if (method.getType() != type) {
      throw new IllegalArgumentException(
          "grpc(\""
              + requestName
              + "\")."
              + verb
              + ": "
              + method.getFullMethodName()
              + " is a "
              + method.getType()
              + " method; "
              + verb
              + "(...) takes "
              + type
              + " methods (use "
              + dslVerb(method.getType())
              + "(...))");
    }
  }

  private static String dslVerb(MethodType type) {
    return switch (type) {
      case UNARY -> "unary";
      case SERVER_STREAMING -> "serverStream";
      case CLIENT_STREAMING -> "clientStream";
      case BIDI_STREAMING -> "bidiStream";
      default -> "a method of a known type";
    };
  }
}
