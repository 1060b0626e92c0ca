package protocols.rpcx;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import protocols.rpcx.codec.RpcxMessage;
import protocols.rpcx.codec.SerializeType;

/** How a request object becomes an rpcx payload and a reply payload becomes a response object. */
interface PayloadCodec<Req, Res> {

  ObjectMapper JSON = new ObjectMapper();

  /** The serialize type announced in the frame; {@code protocolDefault} when the codec has none. */
  SerializeType serializeType(SerializeType protocolDefault);

  byte[] encode(Req request, SerializeType type) throws Exception;

  Res decode(RpcxMessage reply) throws Exception;

  /** What the reply is expected to be, for error messages. */
  String expected();

  static <Res extends MessageLite> PayloadCodec<MessageLite, Res> protobuf(Parser<Res> parser) {
    return new PayloadCodec<>() {
      public SerializeType serializeType(SerializeType protocolDefault) {
        return SerializeType.PROTOBUF;
      }

      public byte[] encode(MessageLite request, SerializeType type) {
        return request.toByteArray();
      }

      public Res decode(RpcxMessage reply) throws Exception {
        return parser.parseFrom(reply.payloadReader());
      }

      public String expected() {
        return "a protobuf message of the parser's type";
      }
    };
  }

  static <Res> PayloadCodec<Object, Res> json(Class<Res> type) {
    return new PayloadCodec<>() {
      public SerializeType serializeType(SerializeType protocolDefault) {
        return SerializeType.JSON;
      }

      public byte[] encode(Object request, SerializeType serialize) throws Exception {
        return request instanceof byte[] raw ? raw : JSON.writeValueAsBytes(request);
      }

      public Res decode(RpcxMessage reply) throws Exception {
        return JSON.readValue(reply.payload(), type);
      }

      public String expected() {
        return "JSON of a " + type.getSimpleName();
      }
    };
  }

  /** Raw bytes both ways; {@code type} null: the protocol's serialize type. */
  static PayloadCodec<byte[], byte[]> bytes(SerializeType type) {
    return new PayloadCodec<>() {
      public SerializeType serializeType(SerializeType protocolDefault) {
        return type == null ? protocolDefault : type;
      }

      public byte[] encode(byte[] request, SerializeType serialize) {
        return request;
      }

      public byte[] decode(RpcxMessage reply) {
        return reply.payload();
      }

      public String expected() {
        return "bytes";
      }
    };
  }

  /**
   * The protocol's serialize type decides: protobuf takes a protobuf message, JSON any object (or
   * bytes), the others bytes. The reply stays an {@link RpcxReply} for the checks to decode.
   */
  static PayloadCodec<Object, RpcxReply> dynamic() {
    return new PayloadCodec<>() {
      public SerializeType serializeType(SerializeType protocolDefault) {
        return protocolDefault;
      }

      public byte[] encode(Object request, SerializeType type) throws Exception {
        if (request instanceof byte[] raw) {
          return raw;
        }
        if (type == SerializeType.PROTOBUF && request instanceof MessageLite message) {
          return message.toByteArray();
        }
        if (type == SerializeType.JSON) {
          return JSON.writeValueAsBytes(request);
        }
        throw new IllegalArgumentException(
            "a "
                + type
                + " call takes "
                + (type == SerializeType.PROTOBUF ? "a protobuf message or bytes" : "bytes")
                + ", got a "
                + request.getClass().getName());
      }

      public RpcxReply decode(RpcxMessage reply) {
        return new RpcxReply(reply);
      }

      public String expected() {
        return "any payload";
      }
    };
  }
}
