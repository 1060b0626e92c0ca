package protocols.thrift.codec;

import io.netty.buffer.ByteBuf;
import org.apache.thrift.protocol.TBinaryProtocol;

/**
 * libthrift's {@link TBinaryProtocol} (strict write, as its default factory makes it) writing its
 * fixed-size values straight into a Netty buffer. The stock protocol hands each of them to its
 * transport as a 1- to 8-byte array, and a direct buffer copies each such array with a native memory
 * copy: about 120 of them for the benchmark's message, 5 % of the injector's CPU at 1000 users on
 * Gatling's pooled allocator. Everything else (strings, binaries, structs, containers) is libthrift's
 * own code, which calls these methods; the bytes are the same ({@code ThriftCodecTest}).
 */
final class ByteBufBinaryProtocol extends TBinaryProtocol {

  private final ByteBuf out;

  ByteBufBinaryProtocol(ByteBuf out) {
    super(new ByteBufTransport(out, Integer.MAX_VALUE), -1, -1, false, true);
    this.out = out;
  }

  @Override
  public void writeByte(byte b) {
    out.writeByte(b);
  }

  @Override
  public void writeI16(short i16) {
    out.writeShort(i16);
  }

  @Override
  public void writeI32(int i32) {
    out.writeInt(i32);
  }

  @Override
  public void writeI64(long i64) {
    out.writeLong(i64);
  }
}
