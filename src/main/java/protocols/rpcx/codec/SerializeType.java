package protocols.rpcx.codec;

/** How an rpcx payload is serialized: the high nibble of the header's fourth byte. */
public enum SerializeType {
  /** Raw bytes, passed through. */
  NONE(0),
  JSON(1),
  PROTOBUF(2),
  /** MessagePack: rpcx's Go client default, and the encoding of heartbeat payloads. */
  MSGPACK(3),
  /** Thrift binary protocol. */
  THRIFT(4);

  private final int code;

  SerializeType(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** values() copies its array on every call: one per frame read. */
  private static final SerializeType[] BY_CODE = values();

  /** The type with this wire code; an unknown code is a malformed frame. */
  public static SerializeType fromCode(int code) {
    for (SerializeType type : BY_CODE) {
      if (type.code == code) {
        return type;
      }
    }
    throw new RpcxFrameException(
        "unknown serialize type "
            + code
            + " (expected 0 none, 1 JSON, 2 protobuf, 3 MsgPack or 4 Thrift)");
  }

  /** Parses a name as users write it: {@code protobuf}, {@code json}, {@code none}, {@code msgpack}, {@code thrift}. */
  public static SerializeType parse(String text, String what) {
    String value = text == null ? "" : text.trim().toUpperCase(java.util.Locale.ROOT);
    for (SerializeType type : values()) {
      if (type.name().equals(value)) {
        return type;
      }
    }
    throw new IllegalArgumentException(
        what + "=" + text + ": expected one of none, json, protobuf, msgpack, thrift");
  }
}
