package protocols.rpcx;

import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageLite;
import com.google.protobuf.Parser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import protocols.rpcx.codec.RpcxMessage;
import protocols.rpcx.codec.SerializeType;

/**
 * A reply as a call without its own codec sees it ({@code rpcx("x").call(path, method).payload(...)}):
 * the payload and metadata, decoded on demand in checks:
 *
 * <pre>{@code
 * .check(response((RpcxReply r) -> r.as(BenchmarkMessage.parser()).getField1()).is("OK"))
 * .check(response((RpcxReply r) -> r.json().get("C").asInt()).is(3))
 * }</pre>
 */
public final class RpcxReply {

  private final RpcxMessage message;

  RpcxReply(RpcxMessage message) {
    this.message = message;
  }

  /** The whole reply frame. */
  public RpcxMessage message() {
    return message;
  }

  public byte[] payload() {
    return message.payload();
  }

  public SerializeType serializeType() {
    return message.serializeType();
  }

  public Map<String, String> metadata() {
    return message.metadata();
  }

  /** The payload as UTF-8 text. */
  public String text() {
    return new String(message.payload(), StandardCharsets.UTF_8);
  }

  /** The payload parsed as a protobuf message. */
  public <T extends MessageLite> T as(Parser<T> parser) {
    try {
      return parser.parseFrom(message.payloadBuffer());
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalStateException("the reply payload is not that protobuf message: " + e.getMessage(), e);
    }
  }

  /** The payload parsed as JSON into {@code type}. */
  public <T> T json(Class<T> type) {
    try {
      return PayloadCodec.JSON.readValue(message.payload(), type);
    } catch (IOException e) {
      throw new UncheckedIOException("the reply payload is not JSON of a " + type.getSimpleName(), e);
    }
  }

  /** The payload parsed as a JSON tree. */
  public com.fasterxml.jackson.databind.JsonNode json() {
    return json(com.fasterxml.jackson.databind.JsonNode.class);
  }

  @Override
  public String toString() {
    return message.toString();
  }
}
