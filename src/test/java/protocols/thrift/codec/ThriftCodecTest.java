package protocols.thrift.codec;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TMultiplexedProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Test;
import protocols.thrift.ThriftEncoding;
import protocols.thrift.ThriftTransport;
import protocols.thrift.calculator.Calculator;

/** The encoder writes what libthrift's own transports write; the decoder cuts and checks what servers send. */
class ThriftCodecTest {

  /** Calculator.add(a, b) as the generated synchronous client writes it, with libthrift's own transports. */
  private static byte[] libthriftWrites(ThriftTransport transport, ThriftEncoding encoding, String service, int seqid, long a)
      throws Exception {
    TMemoryBuffer memory = new TMemoryBuffer(64);
    org.apache.thrift.transport.TTransport wire = transport == ThriftTransport.FRAMED ? new TFramedTransport(memory) : memory;
    TProtocol protocol = encoding.factory().getProtocol(wire);
    if (service != null) {
      protocol = new TMultiplexedProtocol(protocol, service);
    }
    protocol.writeMessageBegin(new TMessage("add", TMessageType.CALL, seqid));
    new Calculator.add_args(a, 2).write(protocol);
    protocol.writeMessageEnd();
    wire.flush();
    return java.util.Arrays.copyOf(memory.getArray(), memory.length());
  }

  private static byte[] encode(ThriftTransport transport, ThriftEncoding encoding, String service, int seqid, long a)
      throws TException {
    ThriftMessageEncoder.Encoded encoded =
        new ThriftMessageEncoder(transport, encoding, service)
            .encode(
                UnpooledByteBufAllocator.DEFAULT,
                seqid,
                p -> {
                  // as a generated call's write_args: seqid 0, no service
                  p.writeMessageBegin(new TMessage("add", TMessageType.CALL, 0));
                  new Calculator.add_args(a, 2).write(p);
                  p.writeMessageEnd();
                });
    try {
      return ByteBufUtil.getBytes(encoded.bytes());
    } finally {
      encoded.bytes().release();
    }
  }

  @Test
  void theEncoderWritesTheBytesOfLibthriftsTransportsWithTheConnectionsSeqidAndServiceName() throws Exception {
    for (ThriftTransport transport : ThriftTransport.values()) {
      for (ThriftEncoding encoding : ThriftEncoding.values()) {
        for (String service : new String[] {null, "Calculator"}) {
          assertArrayEquals(
              libthriftWrites(transport, encoding, service, 7, 40),
              encode(transport, encoding, service, 7, 40),
              transport + " " + encoding + " " + service);
        }
      }
    }
  }

  @Test
  void aConnectionsNextMessageStartsInABufferAsLargeAsItsLargestSoFar() throws Exception {
    ThriftMessageEncoder encoder = new ThriftMessageEncoder(ThriftTransport.FRAMED, ThriftEncoding.BINARY, null);
    String big = "x".repeat(900); // past the first buffer's 256 bytes, short of a power of two
    ThriftMessageEncoder.MessageWriter writer =
        p -> {
          p.writeMessageBegin(new TMessage("echo", TMessageType.CALL, 0));
          p.writeString(big);
          p.writeMessageEnd();
        };
    ByteBuf first = encoder.encode(UnpooledByteBufAllocator.DEFAULT, 1, writer).bytes();
    ByteBuf second = encoder.encode(UnpooledByteBufAllocator.DEFAULT, 2, writer).bytes();
    try {
      assertTrue(first.capacity() > first.readableBytes(), "the first grew by doubling: " + first);
      assertEquals(second.readableBytes(), second.capacity(), "the second did not grow: " + second);
    } finally {
      first.release();
      second.release();
    }
  }

  private static EmbeddedChannel decoder(ThriftTransport transport, ThriftEncoding encoding) {
    return new EmbeddedChannel(new ThriftMessageDecoder(transport, encoding, 1024));
  }

  @Test
  void aBufferedMessageArrivingByteByByteIsDecodedOnceWholeAndTheNextOneAfterIt() throws Exception {
    for (ThriftEncoding encoding : ThriftEncoding.values()) {
      byte[] first = libthriftWrites(ThriftTransport.BUFFERED, encoding, null, 1, 40);
      byte[] second = libthriftWrites(ThriftTransport.BUFFERED, encoding, null, 2, 41);
      EmbeddedChannel channel = decoder(ThriftTransport.BUFFERED, encoding);
      for (byte b : first) {
        assertNull(channel.readInbound(), "no message before its last byte");
        channel.writeInbound(Unpooled.wrappedBuffer(new byte[] {b}));
      }
      channel.writeInbound(Unpooled.wrappedBuffer(second));
      ThriftReply one = channel.readInbound();
      ThriftReply two = channel.readInbound();
      assertEquals(1, one.header().seqid, encoding.toString());
      assertArrayEquals(first, one.message());
      assertEquals(2, two.header().seqid);
      assertArrayEquals(second, two.message());
    }
  }

  @Test
  void aFrameIsDecodedWithoutItsLength() throws Exception {
    byte[] framed = libthriftWrites(ThriftTransport.FRAMED, ThriftEncoding.COMPACT, null, 3, 40);
    EmbeddedChannel channel = decoder(ThriftTransport.FRAMED, ThriftEncoding.COMPACT);
    channel.writeInbound(Unpooled.wrappedBuffer(framed, 0, 5));
    assertNull(channel.readInbound());
    channel.writeInbound(Unpooled.wrappedBuffer(framed, 5, framed.length - 5));
    ThriftReply reply = channel.readInbound();
    assertEquals(3, reply.header().seqid);
    assertArrayEquals(java.util.Arrays.copyOfRange(framed, 4, framed.length), reply.message());
  }

  private static ThriftWireException refused(ThriftTransport transport, ThriftEncoding encoding, byte[] bytes) {
    EmbeddedChannel channel = decoder(transport, encoding);
    return assertThrows(ThriftWireException.class, () -> channel.writeInbound(Unpooled.wrappedBuffer(bytes)));
  }

  @Test
  void aFramedClientReadingABufferedServerSaysToSetBuffered() throws Exception {
    ThriftWireException e =
        refused(ThriftTransport.FRAMED, ThriftEncoding.BINARY, libthriftWrites(ThriftTransport.BUFFERED, ThriftEncoding.BINARY, null, 0, 1));
    assertEquals(ThriftWireException.TRANSPORT_MISMATCH, e.status());
    assertTrue(
        e.getMessage().startsWith("the server seems to speak buffered binary, not framed binary (the first bytes it sent: 80 01 00 01")
            && e.getMessage().endsWith("): set .buffered() on the protocol"),
        e.getMessage());
  }

  @Test
  void aBufferedClientReadingAFramedServerSaysToSetFramed() throws Exception {
    ThriftWireException e =
        refused(ThriftTransport.BUFFERED, ThriftEncoding.BINARY, libthriftWrites(ThriftTransport.FRAMED, ThriftEncoding.BINARY, null, 0, 1));
    assertEquals(ThriftWireException.TRANSPORT_MISMATCH, e.status());
    assertTrue(e.getMessage().contains("seems to speak framed binary, not buffered binary"), e.getMessage());
    assertTrue(e.getMessage().endsWith("set .framed() on the protocol"), e.getMessage());
  }

  @Test
  void aBinaryClientReadingACompactServerSaysToSetCompact() throws Exception {
    ThriftWireException e =
        refused(ThriftTransport.FRAMED, ThriftEncoding.BINARY, libthriftWrites(ThriftTransport.FRAMED, ThriftEncoding.COMPACT, null, 0, 1));
    assertEquals(ThriftWireException.PROTOCOL_MISMATCH, e.status());
    assertTrue(e.getMessage().contains("seems to speak framed compact, not framed binary"), e.getMessage());
    assertTrue(e.getMessage().endsWith("set .compact() on the protocol"), e.getMessage());
  }

  @Test
  void aCompactClientReadingABufferedBinaryFramedServerNamesBothSettings() throws Exception {
    ThriftWireException e =
        refused(ThriftTransport.BUFFERED, ThriftEncoding.COMPACT, libthriftWrites(ThriftTransport.FRAMED, ThriftEncoding.BINARY, null, 0, 1));
    assertTrue(e.getMessage().endsWith("set .framed().binary() on the protocol"), e.getMessage());
  }

  @Test
  void bytesOfNoThriftMessageAreMalformedWithTheirFirstBytes() {
    ThriftWireException e =
        refused(ThriftTransport.FRAMED, ThriftEncoding.BINARY, "HTTP/1.1 400 Bad Request\r\n".getBytes());
    assertEquals(ThriftWireException.MALFORMED, e.status());
    assertTrue(e.getMessage().contains("first bytes 48 54 54 50 2f 31 2e 31"), e.getMessage());
  }

  @Test
  void aBufferedMessageLargerThanTheLimitIsRefusedInsteadOfBuffered() throws Exception {
    // a binary string claiming 1 MB: more than the decoder's 1 KB limit
    ByteBuf bytes = Unpooled.buffer();
    bytes.writeBytes(new byte[] {(byte) 0x80, 0x01, 0x00, 0x02}).writeInt(3).writeBytes("add".getBytes()).writeInt(1);
    bytes.writeByte(11).writeShort(0).writeInt(1 << 20);
    ThriftWireException e = refused(ThriftTransport.BUFFERED, ThriftEncoding.BINARY, ByteBufUtil.getBytes(bytes));
    assertTrue(e.getMessage().contains("a declared size of 1048576 bytes"), e.getMessage());
  }
}
