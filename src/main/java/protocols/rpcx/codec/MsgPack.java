package protocols.rpcx.codec;

/** The one MessagePack form rpcx needs of us: the int64 timestamp of a heartbeat. */
public final class MsgPack {

  private MsgPack() {}

  /** {@code value} as a MessagePack int64 ({@code 0xd3} and 8 big-endian bytes), as Go's msgpack writes an int64. */
  public static byte[] int64(long value) {
    byte[] out = new byte[9];
    out[0] = (byte) 0xd3;
    for (int i = 0; i < 8; i++) {
      out[8 - i] = (byte) (value >>> (8 * i));
    }
    return out;
  }
}
