package protocols.thrift.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TType;
import protocols.thrift.ThriftEncoding;
import protocols.thrift.ThriftTransport;

/**
 * Cuts the bytes of a connection into whole Thrift messages ({@link ThriftReply}). Framed: by the
 * 4-byte length. Buffered: there is no length, so the message is parsed with libthrift's protocol
 * (header, then the result struct skipped field by field with {@link TProtocolUtil#skip}); when the
 * bytes run out it waits for more and parses again from the start.
 *
 * <p>The first bytes of a connection are checked against the expected transport and protocol: a
 * server that speaks another is a {@link ThriftWireException} naming what it seems to speak.
 */
public final class ThriftMessageDecoder extends ByteToMessageDecoder {

  public static final int DEFAULT_MAX_MESSAGE_LENGTH = 16 * 1024 * 1024;

  private final Wire expected;
  private final int maxMessageLength;
  private boolean checked;

  public ThriftMessageDecoder(ThriftTransport transport, ThriftEncoding encoding, int maxMessageLength) {
    this.expected = new Wire(transport, encoding);
    this.maxMessageLength = maxMessageLength;
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) throws Exception {
    ThriftReply reply = expected.transport() == ThriftTransport.FRAMED ? framed(in) : buffered(in);
    if (reply != null) {
      out.add(reply);
    }
  }

  private ThriftReply framed(ByteBuf in) throws ThriftWireException {
    if (in.readableBytes() < 4) {
      return null;
    }
    int length = in.getInt(in.readerIndex());
    if (length <= 0 || length > maxMessageLength) {
      if (!checked) {
        mismatchIfRecognised(in);
      }
      throw new ThriftWireException(
          ThriftWireException.MALFORMED,
          "a frame length of " + length + " (expected 1 to " + maxMessageLength + " bytes), first bytes " + Wire.firstBytes(in));
    }
    if (in.readableBytes() < 4 + length) {
      return null;
    }
    ByteBuf frame = in.slice(in.readerIndex() + 4, length);
    if (!checked) {
      ThriftEncoding theirs = Wire.encodingAt(frame, frame.readerIndex(), frame.readableBytes());
      if (theirs != null && theirs != expected.encoding()) {
        throw mismatch(new Wire(ThriftTransport.FRAMED, theirs), in);
      }
    }
    ThriftReply reply = new ThriftReply(header(frame), ByteBufUtil.getBytes(frame));
    in.skipBytes(4 + length);
    checked = true;
    return reply;
  }

  private ThriftReply buffered(ByteBuf in) throws ThriftWireException {
    if (!checked) {
      if (in.readableBytes() < 2 || (in.getByte(in.readerIndex()) == 0 && in.readableBytes() < 6)) {
        return null; // too few bytes to tell a frame length from a message
      }
      mismatchIfRecognised(in);
    }
    int start = in.readerIndex();
    ByteBuf view = in.duplicate();
    TProtocol protocol = expected.encoding().factory().getProtocol(new ByteBufTransport(view, maxMessageLength));
    TMessage header;
    try {
      header = protocol.readMessageBegin();
      TProtocolUtil.skip(protocol, TType.STRUCT);
      protocol.readMessageEnd();
    } catch (TException e) {
      if (e == ByteBufTransport.NEED_MORE) {
        if (in.readableBytes() > maxMessageLength) {
          throw new ThriftWireException(
              ThriftWireException.MALFORMED,
              "no whole message in " + in.readableBytes() + " bytes (the largest accepted is " + maxMessageLength + ")");
        }
        return null;
      }
      throw new ThriftWireException("not a " + expected + " message (first bytes " + Wire.firstBytes(in) + "): " + e.getMessage(), e);
    }
    int length = view.readerIndex() - start;
    ThriftReply reply = new ThriftReply(header, ByteBufUtil.getBytes(in, start, length));
    in.skipBytes(length);
    checked = true;
    return reply;
  }

  private TMessage header(ByteBuf message) throws ThriftWireException {
    try {
      return expected.encoding().factory().getProtocol(new ByteBufTransport(message.duplicate(), maxMessageLength)).readMessageBegin();
    } catch (TException e) {
      throw new ThriftWireException("not a " + expected + " message (first bytes " + Wire.firstBytes(message) + "): " + e.getMessage(), e);
    }
  }

  private void mismatchIfRecognised(ByteBuf in) throws ThriftWireException {
    Wire theirs = Wire.sniff(in);
    if (theirs != null && !theirs.equals(expected)) {
      throw mismatch(theirs, in);
    }
  }

  private ThriftWireException mismatch(Wire theirs, ByteBuf in) {
    return new ThriftWireException(
        theirs.transport() != expected.transport()
            ? ThriftWireException.TRANSPORT_MISMATCH
            : ThriftWireException.PROTOCOL_MISMATCH,
        "the server seems to speak "
            + theirs
            + ", not "
            + expected
            + " (the first bytes it sent: "
            + Wire.firstBytes(in)
            + "): set "
            + expected.settingsFor(theirs)
            + " on the protocol");
  }
}
