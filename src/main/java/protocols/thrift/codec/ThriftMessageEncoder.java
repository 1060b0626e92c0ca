package protocols.thrift.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMultiplexedProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolDecorator;
import protocols.thrift.ThriftEncoding;
import protocols.thrift.ThriftTransport;

/**
 * Turns one call into the bytes a Thrift server reads: the generated code writes the message
 * ({@link MessageWriter}, for example a generated call's {@code write_args}), this class gives it
 * the connection's sequence id, prefixes the method with the multiplexed service name
 * ({@code TMultiplexedProtocol}'s {@code "Service:method"}) and, for the framed transport, puts the
 * 4-byte length in front. Thread-safe: besides its settings it holds only a size hint, which a race
 * merely leaves a little off.
 */
public final class ThriftMessageEncoder {

  /** Writes one whole message (begin, arguments struct, end) with libthrift's protocol. */
  @FunctionalInterface
  public interface MessageWriter {
    void write(TProtocol protocol) throws TException;
  }

  /** The encoded bytes and the message header as sent (name with its service prefix, type, seqid). */
  public record Encoded(ByteBuf bytes, TMessage message) {}

  private final ThriftTransport transport;
  private final ThriftEncoding encoding;
  private final String service; // null: not multiplexed
  /**
   * The largest message encoded so far (up to {@link #MAX_HINT}): the next buffer starts that big. One
   * that starts small grows as the generated code writes, a reallocation and a copy for each doubling,
   * which in a profile at 1000 users took 9 % of the injector's CPU on Gatling's pooled allocator.
   */
  private int sizeHint = 256;

  static final int MAX_HINT = 64 * 1024;

  public ThriftMessageEncoder(ThriftTransport transport, ThriftEncoding encoding, String service) {
    this.transport = transport;
    this.encoding = encoding;
    this.service = service;
  }

  /** The buffer is the caller's to release (writing it to a channel does). */
  public Encoded encode(ByteBufAllocator allocator, int seqid, MessageWriter writer) throws TException {
    ByteBuf out = allocator.buffer(sizeHint);
    try {
      int start = out.writerIndex();
      if (transport == ThriftTransport.FRAMED) {
        out.writeInt(0); // the frame length, set once the message is written
      }
      TProtocol protocol =
          encoding == ThriftEncoding.BINARY
              ? new ByteBufBinaryProtocol(out)
              : encoding.factory().getProtocol(new ByteBufTransport(out, Integer.MAX_VALUE));
      Header header = new Header(protocol, service, seqid);
      writer.write(header);
      if (header.sent == null) {
        throw new TException("the call wrote no Thrift message (no writeMessageBegin)");
      }
      if (transport == ThriftTransport.FRAMED) {
        out.setInt(start, out.writerIndex() - start - 4);
      }
      int size = out.writerIndex() - start;
      if (size > sizeHint) {
        sizeHint = Math.min(size, MAX_HINT);
      }
      return new Encoded(out, header.sent);
    } catch (TException | RuntimeException e) {
      out.release();
      throw e;
    }
  }

  /** Rewrites the message header the generated code writes (it always sends seqid 0, no service). */
  private static final class Header extends TProtocolDecorator {
    private final String service;
    private final int seqid;
    TMessage sent;

    Header(TProtocol protocol, String service, int seqid) {
      super(protocol);
      this.service = service;
      this.seqid = seqid;
    }

    @Override
    public void writeMessageBegin(TMessage message) throws TException {
      String name = service == null ? message.name : service + TMultiplexedProtocol.SEPARATOR + message.name;
      sent = new TMessage(name, message.type, seqid);
      super.writeMessageBegin(sent);
    }
  }
}
