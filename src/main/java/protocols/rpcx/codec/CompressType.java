package protocols.rpcx.codec;

/** How an rpcx payload travels: bits {@code 0x1C} of the header's third byte. */
public enum CompressType {
  NONE(0),
  GZIP(1);

  private final int code;

  CompressType(int code) {
    this.code = code;
  }

  public int code() {
    return code;
  }

  /** values() copies its array on every call: one per frame read. */
  private static final CompressType[] BY_CODE = values();

  /** The type with this wire code; an unknown code is a malformed frame. */
  public static CompressType fromCode(int code) {
    for (CompressType type : BY_CODE) {
      if (type.code == code) {
        return type;
      }
    }
    throw new RpcxFrameException("unknown compress type " + code + " (expected 0 none or 1 gzip)");
  }
}
