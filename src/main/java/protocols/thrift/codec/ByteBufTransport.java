package protocols.thrift.codec;

import io.netty.buffer.ByteBuf;
import org.apache.thrift.TConfiguration;
import org.apache.thrift.transport.TTransport;
import org.apache.thrift.transport.TTransportException;

/**
 * A Thrift transport over a Netty buffer, for libthrift's protocols to write into and read from
 * without copies or blocking. Reading past the readable bytes throws {@link #NEED_MORE}: the message
 * is not complete yet (the decoder then waits for more bytes).
 */
final class ByteBufTransport extends TTransport {

  /** Thrown by reads that run out of bytes; carries no stack (it is control flow, not an error). */
  static final TTransportException NEED_MORE =
      new TTransportException(TTransportException.END_OF_FILE, "need more bytes") {
        @Override
        public synchronized Throwable fillInStackTrace() {
          return this;
        }
      };

  private final ByteBuf buffer;
  private final long maxMessageLength;

  ByteBufTransport(ByteBuf buffer, long maxMessageLength) {
    this.buffer = buffer;
    this.maxMessageLength = maxMessageLength;
  }

  @Override
  public int read(byte[] into, int offset, int length) throws TTransportException {
    if (buffer.readableBytes() < length) {
      throw NEED_MORE;
    }
    buffer.readBytes(into, offset, length);
    return length;
  }

  /**
   * Byte by byte up to 8 bytes: the compact protocol writes each field header and varint as a small
   * array, which a direct buffer would copy with a native memory copy each time.
   */
  @Override
  public void write(byte[] from, int offset, int length) {
    if (length <= 8) {
      buffer.ensureWritable(length);
      for (int i = offset; i < offset + length; i++) {
        buffer.writeByte(from[i]);
      }
    } else {
      buffer.writeBytes(from, offset, length);
    }
  }

  /** A declared size (a string, a list) larger than a whole message can be is corruption, not "wait". */
  @Override
  public void checkReadBytesAvailable(long numBytes) throws TTransportException {
    if (numBytes < 0 || numBytes > maxMessageLength) {
      throw new TTransportException(
          TTransportException.CORRUPTED_DATA,
          "a declared size of " + numBytes + " bytes, more than the largest message accepted (" + maxMessageLength + ")");
    }
  }

  @Override
  public void updateKnownMessageSize(long size) {}

  @Override
  public TConfiguration getConfiguration() {
    return TConfiguration.DEFAULT;
  }

  @Override
  public boolean isOpen() {
    return true;
  }

  @Override
  public void open() {}

  @Override
  public void close() {}
}
