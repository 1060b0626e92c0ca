package protocols.rpcx.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.MessageToByteEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes {@link RpcxMessage}s as rpcx frames (big-endian; a 16-byte prefix, then path, method,
 * metadata and payload, each with a uint32 length). A payload marked gzip is compressed here.
 * Stateless and sharable.
 */
@ChannelHandler.Sharable
public final class RpcxEncoder extends MessageToByteEncoder<RpcxMessage> {

  public static final RpcxEncoder INSTANCE = new RpcxEncoder();

  public RpcxEncoder() {
    super(RpcxMessage.class);
  }

  @Override
  protected void encode(ChannelHandlerContext ctx, RpcxMessage message, ByteBuf out) {
    encode(message, out);
  }

  @Override
  protected ByteBuf allocateBuffer(ChannelHandlerContext ctx, RpcxMessage message, boolean preferDirect) {
    int estimate = 64 + message.payloadLength() + message.servicePath().length() * 3 + message.serviceMethod().length() * 3;
    return preferDirect ? ctx.alloc().ioBuffer(estimate) : ctx.alloc().heapBuffer(estimate);
  }

  /** The header byte of the flags: type, heartbeat, oneway, compression, status. */
  static int flags(RpcxMessage m) {
    return (m.isResponse() ? 0x80 : 0)
        | (m.isHeartbeat() ? 0x40 : 0)
        | (m.isOneway() ? 0x20 : 0)
        | (m.compressType().code() << 2)
        | (m.isError() ? 1 : 0);
  }

  /** Writes one frame of {@code message} to {@code out}. */
  public static void encode(RpcxMessage message, ByteBuf out) {
    byte[] path = message.servicePath().getBytes(StandardCharsets.UTF_8);
    byte[] method = message.serviceMethod().getBytes(StandardCharsets.UTF_8);
    byte[] payload =
        message.compressType() == CompressType.GZIP
            ? Gzip.zip(message.payloadArray())
            : message.payloadArray();
    long metadataLength = 0;
    for (Map.Entry<String, String> pair : message.metadata().entrySet()) {
      metadataLength += 8L + utf8Length(pair.getKey()) + utf8Length(pair.getValue());
    }
    long total = 16L + path.length + method.length + metadataLength + payload.length;
    if (total > 0xFFFF_FFFFL || total + 16 > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "rpcx frame too large to encode: " + total + " bytes after the prefix");
    }
    out.ensureWritable((int) total + 16);
    out.writeByte(RpcxMessage.MAGIC);
    out.writeByte(message.version());
    out.writeByte(flags(message));
    out.writeByte(message.serializeType().code() << 4);
    out.writeLong(message.seq());
    out.writeInt((int) total);
    out.writeInt(path.length).writeBytes(path);
    out.writeInt(method.length).writeBytes(method);
    out.writeInt((int) metadataLength);
    for (Map.Entry<String, String> pair : message.metadata().entrySet()) {
      writeString(out, pair.getKey());
      writeString(out, pair.getValue());
    }
    out.writeInt(payload.length).writeBytes(payload);
  }

  private static void writeString(ByteBuf out, String text) {
    int lengthIndex = out.writerIndex();
    out.writeInt(0);
    int written = out.writeCharSequence(text, StandardCharsets.UTF_8);
    out.setInt(lengthIndex, written);
  }

  private static int utf8Length(String s) {
    return io.netty.buffer.ByteBufUtil.utf8Bytes(s);
  }
}
