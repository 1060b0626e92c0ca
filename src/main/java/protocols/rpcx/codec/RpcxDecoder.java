package protocols.rpcx.codec;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads rpcx frames into {@link RpcxMessage}s. It checks the magic byte as soon as it arrives, refuses
 * a length prefix above {@code maxFrameLength} before buffering the frame, and checks every inner
 * length against the frame. A payload marked gzip is decompressed (bounded by the same maximum).
 *
 * <p>After the first malformed frame it throws {@link RpcxFrameException} (Netty wraps it in a
 * DecoderException) and discards everything that follows: the stream has lost its framing, so the
 * connection must be closed. One instance per channel.
 */
public final class RpcxDecoder extends ByteToMessageDecoder {

  /** The default maximum: 16 MiB after the 16-byte prefix. */
  public static final int DEFAULT_MAX_FRAME_LENGTH = 16 * 1024 * 1024;

  /** magic, version, flags, serialize type, seq (8), total length (4). */
  public static final int PREFIX_LENGTH = 16;

  /** The smallest body: four uint32 lengths (path, method, metadata, payload). */
  private static final int MIN_BODY_LENGTH = 16;

  private final int maxFrameLength;
  private boolean failed;

  public RpcxDecoder() {
    this(DEFAULT_MAX_FRAME_LENGTH);
  }

  /** @param maxFrameLength the largest frame body (bytes after the prefix) accepted */
  public RpcxDecoder(int maxFrameLength) {
    if (maxFrameLength < MIN_BODY_LENGTH) {
      throw new IllegalArgumentException(
          "rpcx maximum frame length: expected at least " + MIN_BODY_LENGTH + " bytes, got " + maxFrameLength);
    }
    this.maxFrameLength = maxFrameLength;
  }

  public int maxFrameLength() {
    return maxFrameLength;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (failed) {
      in.skipBytes(in.readableBytes());
      return;
    }
    try {
      RpcxMessage message = decodeOne(in, maxFrameLength);
      if (message != null) {
        out.add(message);
      }
    } catch (RpcxFrameException e) {
      failed = true;
      in.skipBytes(in.readableBytes());
      throw e;
    }
  }

  /**
   * Decodes one frame from {@code in} when it holds a whole one (advancing past it), returns null when
   * more bytes are needed (leaving {@code in} as it was), or throws {@link RpcxFrameException}.
   */
  public static RpcxMessage decodeOne(ByteBuf in, int maxFrameLength) {
    int start = in.readerIndex();
    int readable = in.readableBytes();
    if (readable < 1) {
      return null;
    }
    byte magic = in.getByte(start);
    if (magic != RpcxMessage.MAGIC) {
      throw new RpcxFrameException(
          String.format("wrong magic number 0x%02x (expected 0x08): not an rpcx frame", magic & 0xFF));
    }
    if (readable < PREFIX_LENGTH) {
      return null;
    }
    long total = in.getUnsignedInt(start + 12);
    if (total > maxFrameLength) {
      throw new RpcxFrameException(
          "frame length "
              + total
              + " exceeds the maximum of "
              + maxFrameLength
              + " bytes (set a larger maximum frame length if this is legitimate)");
    }
    if (total < MIN_BODY_LENGTH) {
      throw new RpcxFrameException(
          "frame length " + total + " is too short: a frame body holds at least four 4-byte lengths (16 bytes)");
    }
    if (readable < PREFIX_LENGTH + total) {
      return null;
    }
    int version = in.getUnsignedByte(start + 1);
    int flags = in.getUnsignedByte(start + 2);
    int serialize = in.getUnsignedByte(start + 3);
    long seq = in.getLong(start + 4);
    CompressType compress = CompressType.fromCode((flags & 0x1C) >>> 2);
    int status = flags & 0x03;
    if (status > 1) {
      throw new RpcxFrameException("unknown message status " + status + " (expected 0 normal or 1 error)");
    }
    SerializeType serializeType = SerializeType.fromCode(serialize >>> 4);

    ByteBuf body = in.slice(start + PREFIX_LENGTH, (int) total);
    String path = readString(body, "service path");
    String method = readString(body, "service method");
    Map<String, String> metadata = readMetadata(body);
    long payloadLength = readLength(body, "payload");
    if (payloadLength != body.readableBytes()) {
      throw new RpcxFrameException(
          "payload length "
              + payloadLength
              + " does not match the "
              + body.readableBytes()
              + " bytes left in the frame");
    }
    byte[] payload = new byte[(int) payloadLength];
    body.readBytes(payload);
    if (compress == CompressType.GZIP) {
      payload = Gzip.unzip(payload, maxFrameLength);
    }
    in.readerIndex(start + PREFIX_LENGTH + (int) total);
    return RpcxMessage.builder()
        .version(version)
        .response((flags & 0x80) != 0)
        .heartbeat((flags & 0x40) != 0)
        .oneway((flags & 0x20) != 0)
        .compressType(compress)
        .error(status == 1)
        .serializeType(serializeType)
        .seq(seq)
        .servicePath(path)
        .serviceMethod(method)
        .metadata(metadata)
        .payload(payload)
        .build();
  }

  private static long readLength(ByteBuf body, String what) {
    if (body.readableBytes() < 4) {
      throw new RpcxFrameException(
          "truncated frame: no room for the length of the " + what + " (" + body.readableBytes() + " bytes left)");
    }
    long length = body.readUnsignedInt();
    if (length > body.readableBytes()) {
      throw new RpcxFrameException(
          what + " length " + length + " exceeds the " + body.readableBytes() + " bytes left in the frame");
    }
    return length;
  }

  private static String readString(ByteBuf body, String what) {
    int length = (int) readLength(body, what);
    String text = body.toString(body.readerIndex(), length, StandardCharsets.UTF_8);
    body.skipBytes(length);
    return text;
  }

  private static Map<String, String> readMetadata(ByteBuf body) {
    int length = (int) readLength(body, "metadata");
    Map<String, String> metadata = new LinkedHashMap<>();
    if (length == 0) {
      return metadata;
    }
    ByteBuf block = body.readSlice(length);
    while (block.isReadable()) {
      String key = readString(block, "metadata key");
      if (!block.isReadable()) {
        throw new RpcxFrameException("metadata key '" + key + "' has no value");
      }
      String value = readString(block, "metadata value of '" + key + "'");
      metadata.put(key, value);
    }
    return metadata;
  }
}
