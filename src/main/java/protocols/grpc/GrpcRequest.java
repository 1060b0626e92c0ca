package protocols.grpc;

import io.grpc.MethodDescriptor;
import protocols.core.RpcRequestBuilder;

/** A named gRPC request whose method is not chosen yet. */
public final class GrpcRequest {

  private final String requestName;

  GrpcRequest(String requestName) {
    this.requestName = requestName;
  }

  /** A unary call of {@code method}, such as the generated {@code HelloGrpc.getSayMethod()}. */
  public <Req, Res> GrpcUnaryRequestBuilder<Req, Res> unary(MethodDescriptor<Req, Res> method) {
    if (method == null) {
      throw new IllegalArgumentException("grpc(\"" + requestName + "\").unary: method is null");
    }
    if (method.getType() != MethodDescriptor.MethodType.UNARY) {
      throw new IllegalArgumentException(
          "grpc(\""
              + requestName
              + "\").unary: "
              + method.getFullMethodName()
              + " is a "
              + method.getType()
              + " method; only unary methods are supported");
    }
    return new GrpcUnaryRequestBuilder<>(RpcRequestBuilder.Common.named(requestName), method, java.util.List.of());
  }
}
