package protocols.thrift.codec;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TMap;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TMultiplexedProtocol;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TSet;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;
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

  /** One value of every kind a Thrift protocol writes, extremes and non-ASCII text included. */
  private static void writeEveryKind(TProtocol p) throws TException {
    p.writeMessageBegin(new TMessage("every", TMessageType.CALL, 0));
    p.writeStructBegin(new TStruct("Every"));
    short id = 1;
    for (byte b : new byte[] {0, -1, Byte.MIN_VALUE, Byte.MAX_VALUE}) {
      p.writeFieldBegin(new TField("b", TType.BYTE, id++));
      p.writeByte(b);
    }
    for (short v : new short[] {0, -1, Short.MIN_VALUE, Short.MAX_VALUE, 0x1234}) {
      p.writeFieldBegin(new TField("s", TType.I16, id++));
      p.writeI16(v);
    }
    for (int v : new int[] {0, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x12345678, 300}) {
      p.writeFieldBegin(new TField("i", TType.I32, id++));
      p.writeI32(v);
    }
    for (long v : new long[] {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 0x123456789abcdefL}) {
      p.writeFieldBegin(new TField("l", TType.I64, id++));
      p.writeI64(v);
    }
    for (double v : new double[] {0.0, -0.0, 1.5, Double.NaN, Double.MAX_VALUE, Double.NEGATIVE_INFINITY}) {
      p.writeFieldBegin(new TField("d", TType.DOUBLE, id++));
      p.writeDouble(v);
    }
    for (boolean v : new boolean[] {true, false}) {
      p.writeFieldBegin(new TField("z", TType.BOOL, id++));
      p.writeBool(v);
    }
    for (String v : new String[] {"", "OK", "许多往事在眼前一幕一幕", "x".repeat(300)}) {
      p.writeFieldBegin(new TField("t", TType.STRING, id++));
      p.writeString(v);
    }
    p.writeFieldBegin(new TField("bin", TType.STRING, id++));
    p.writeBinary(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3, (byte) 0xff}));
    p.writeFieldBegin(new TField("list", TType.LIST, id++));
    p.writeListBegin(new TList(TType.I32, 2));
    p.writeI32(7);
    p.writeI32(-7);
    p.writeListEnd();
    p.writeFieldBegin(new TField("map", TType.MAP, id++));
    p.writeMapBegin(new TMap(TType.STRING, TType.I64, 1));
    p.writeString("k");
    p.writeI64(1L << 40);
    p.writeMapEnd();
    p.writeFieldBegin(new TField("set", TType.SET, id++));
    p.writeSetBegin(new TSet(TType.BYTE, 1));
    p.writeByte((byte) 9);
    p.writeSetEnd();
    p.writeFieldStop();
    p.writeStructEnd();
    p.writeMessageEnd();
  }

  @Test
  void everyKindOfValueIsWrittenAsLibthriftWritesItOnHeapAndDirectBuffers() throws Exception {
    for (ThriftEncoding encoding : ThriftEncoding.values()) {
      TMemoryBuffer memory = new TMemoryBuffer(64);
      TProtocol stock = encoding.factory().getProtocol(memory);
      stock.writeMessageBegin(new TMessage("every", TMessageType.CALL, 5));
      // the rest as the encoder's writer writes it, after the header the encoder rewrites
      writeEveryKind(new org.apache.thrift.protocol.TProtocolDecorator(stock) {
        @Override
        public void writeMessageBegin(TMessage message) {}
      });
      byte[] expected = java.util.Arrays.copyOf(memory.getArray(), memory.length());
      for (ByteBufAllocator allocator : new ByteBufAllocator[] {UnpooledByteBufAllocator.DEFAULT, PooledByteBufAllocator.DEFAULT}) {
        for (boolean direct : new boolean[] {false, true}) {
          ByteBufAllocator buffers = direct ? allocator : heapOnly(allocator);
          ThriftMessageEncoder.Encoded encoded =
              new ThriftMessageEncoder(ThriftTransport.BUFFERED, encoding, null).encode(buffers, 5, ThriftCodecTest::writeEveryKind);
          try {
            assertEquals(direct, encoded.bytes().isDirect(), "the buffer kind tried");
            assertArrayEquals(expected, ByteBufUtil.getBytes(encoded.bytes()), encoding + " " + encoded.bytes());
          } finally {
            encoded.bytes().release();
          }
        }
      }
    }
  }

  /** {@code allocator}, handing out heap buffers where it would hand out direct ones. */
  private static ByteBufAllocator heapOnly(ByteBufAllocator allocator) {
    return new io.netty.buffer.AbstractByteBufAllocator(false) {
      @Override
      protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return allocator.heapBuffer(initialCapacity, maxCapacity);
      }

      @Override
      protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return allocator.heapBuffer(initialCapacity, maxCapacity);
      }

      @Override
      public boolean isDirectBufferPooled() {
        return false;
      }
    };
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
