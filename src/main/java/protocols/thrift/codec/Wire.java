package protocols.thrift.codec;

import io.netty.buffer.ByteBuf;
import protocols.thrift.ThriftEncoding;
import protocols.thrift.ThriftTransport;

/**
 * A transport and a protocol, as configured or as recognised from the first bytes a server sends. A
 * strict binary message starts with {@code 80 01}, a compact one with {@code 82} and version 1 in the
 * low 5 bits of the next byte; a frame puts a positive 4-byte length before either.
 */
public record Wire(ThriftTransport transport, ThriftEncoding encoding) {

  /** What the readable bytes of {@code in} look like, or null when they are neither (or too few). */
  static Wire sniff(ByteBuf in) {
    int at = in.readerIndex();
    int n = in.readableBytes();
    ThriftEncoding bare = encodingAt(in, at, n);
    if (bare != null) {
      return new Wire(ThriftTransport.BUFFERED, bare);
    }
    if (n >= 6 && in.getInt(at) > 0) {
      ThriftEncoding framed = encodingAt(in, at + 4, n - 4);
      if (framed != null) {
        return new Wire(ThriftTransport.FRAMED, framed);
      }
    }
    return null;
  }

  /** The protocol whose message begins at {@code at}, or null. */
  static ThriftEncoding encodingAt(ByteBuf in, int at, int available) {
    if (available < 2) {
      return null;
    }
    int b0 = in.getUnsignedByte(at);
    int b1 = in.getUnsignedByte(at + 1);
    if (b0 == 0x80 && b1 == 0x01) {
      return ThriftEncoding.BINARY;
    }
    if (b0 == 0x82 && (b1 & 0x1f) == 1) {
      return ThriftEncoding.COMPACT;
    }
    return null;
  }

  /** "framed binary". */
  @Override
  public String toString() {
    return transport.label() + " " + encoding.label();
  }

  /** The builder calls that turn this wire into {@code theirs}: ".buffered()", ".framed().compact()". */
  String settingsFor(Wire theirs) {
    StringBuilder fix = new StringBuilder();
    if (transport != theirs.transport) {
      fix.append('.').append(theirs.transport.label()).append("()");
    }
    if (encoding != theirs.encoding) {
      fix.append('.').append(theirs.encoding.label()).append("()");
    }
    return fix.toString();
  }

  /** Up to the first 8 readable bytes in hex, for messages: "80 01 00 02 00 00 00 03". */
  static String firstBytes(ByteBuf in) {
    StringBuilder hex = new StringBuilder();
    int n = Math.min(8, in.readableBytes());
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        hex.append(' ');
      }
      hex.append(String.format("%02x", in.getUnsignedByte(in.readerIndex() + i)));
    }
    return hex.toString();
  }
}
