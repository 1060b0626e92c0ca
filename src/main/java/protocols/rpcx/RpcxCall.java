package protocols.rpcx;

import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import io.gatling.javaapi.core.Session;
import java.util.List;
import java.util.function.Function;
import protocols.core.RpcRequestBuilder;
import protocols.rpcx.codec.SerializeType;

/**
 * A call of one service method; choose how its payload is serialized:
 *
 * <ul>
 *   <li>{@code .protobuf(BenchmarkMessage.parser())}: a protobuf message in, the parsed reply out;
 *   <li>{@code .json(Reply.class)}: any object as JSON in, the reply's JSON read into {@code Reply};
 *   <li>{@code .bytes()} / {@code .bytes(SerializeType.MSGPACK)}: bytes you encoded, the reply's bytes;
 *   <li>{@code .payload(session -> ...)}: the protocol's {@code serializeType} decides, the reply is an
 *       {@link RpcxReply}.
 * </ul>
 */
public final class RpcxCall {

  private final String requestName;
  private final String servicePath;
  private final String method;

  RpcxCall(String requestName, String servicePath, String method) {
    this.requestName = requestName;
    this.servicePath = servicePath;
    this.method = method;
  }

  public <Res extends MessageLite> RpcxRequestBuilder<MessageLite, Res> protobuf(Parser<Res> replyParser) {
    if (replyParser == null) {
      throw new IllegalArgumentException(
          "rpcx(\"" + requestName + "\").protobuf: expected the reply's parser, such as BenchmarkMessage.parser()");
    }
    return build(PayloadCodec.protobuf(replyParser));
  }

  public <Res> RpcxRequestBuilder<Object, Res> json(Class<Res> replyType) {
    if (replyType == null) {
      throw new IllegalArgumentException("rpcx(\"" + requestName + "\").json: expected the reply's class");
    }
    return build(PayloadCodec.json(replyType));
  }

  /** Raw bytes, announced with the protocol's serialize type. */
  public RpcxRequestBuilder<byte[], byte[]> bytes() {
    return build(PayloadCodec.bytes(null));
  }

  /** Raw bytes, announced as {@code type}. */
  public RpcxRequestBuilder<byte[], byte[]> bytes(SerializeType type) {
    if (type == null) {
      throw new IllegalArgumentException("rpcx(\"" + requestName + "\").bytes: expected a serialize type");
    }
    return build(PayloadCodec.bytes(type));
  }

  /** The payload, serialized as the protocol's serialize type says; the reply is an {@link RpcxReply}. */
  public RpcxRequestBuilder<Object, RpcxReply> payload(Function<Session, Object> payload) {
    return build(PayloadCodec.dynamic()).payload(payload);
  }

  /** The same payload for every call. */
  public RpcxRequestBuilder<Object, RpcxReply> payload(Object payload) {
    return build(PayloadCodec.dynamic()).payload(payload);
  }

  private <Req, Res> RpcxRequestBuilder<Req, Res> build(PayloadCodec<Req, Res> codec) {
    return new RpcxRequestBuilder<>(
        RpcRequestBuilder.Common.named(requestName), servicePath, method, codec, List.of(), false);
  }
}
