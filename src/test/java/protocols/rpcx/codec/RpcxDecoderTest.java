package protocols.rpcx.codec;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Malformed frames are rejected with an error that says what is wrong, before anything big is allocated. */
class RpcxDecoderTest {

  /** Feeds {@code bytes} to a fresh decoder and returns the message of the error it raised. */
  static String rejection(byte[] bytes, int maxFrameLength) {
    EmbeddedChannel channel = new EmbeddedChannel(new RpcxDecoder(maxFrameLength));
    DecoderException e =
        assertThrows(DecoderException.class, () -> channel.writeInbound(Unpooled.wrappedBuffer(bytes)));
    assertInstanceOf(RpcxFrameException.class, e);
    assertNull(channel.readInbound(), "nothing decoded from a malformed frame");
    channel.finishAndReleaseAll();
    return e.getMessage();
  }

  static String rejection(String hex) {
    return rejection(ByteBufUtil.decodeHexDump(hex), RpcxDecoder.DEFAULT_MAX_FRAME_LENGTH);
  }

  /** A valid frame (the error reply vector) with one byte replaced. */
  static String errorReplyWith(int offset, String hexByte) {
    String hex = TestVectors.ERROR_REPLY;
    return hex.substring(0, offset * 2) + hexByte + hex.substring(offset * 2 + 2);
  }

  @Test
  void aWrongMagicNumberIsRejectedAtTheFirstByte() {
    String message = rejection(ByteBufUtil.decodeHexDump("47"), 1024); // 'G' of "GET / HTTP/1.1"
    assertTrue(message.contains("wrong magic number 0x47 (expected 0x08)"), message);
  }

  @Test
  void aHostileLengthPrefixIsRejectedBeforeAllocating() {
    // 16 bytes announcing a 4 GiB frame: rejected at once, without waiting for or buffering it
    String message = rejection(ByteBufUtil.decodeHexDump("08000020" + "0000000000000000" + "ffffffff"), 1 << 20);
    assertTrue(message.contains("frame length 4294967295 exceeds the maximum of 1048576 bytes"), message);
  }

  @Test
  void aLengthPrefixTooShortForTheFourInnerLengthsIsRejected() {
    String message = rejection("0800002000000000000000000000000300000000");
    assertTrue(message.contains("frame length 3 is too short"), message);
  }

  @Test
  void aServicePathLongerThanTheFrameIsRejected() {
    // the error reply, its path length (offset 16) raised from 5 to 0x7f
    String message = rejection(errorReplyWith(19, "7f"));
    assertTrue(message.contains("service path length 127 exceeds the 71 bytes left in the frame"), message);
  }

  @Test
  void aGarbageMetadataLengthIsRejected() {
    // the metadata block length (offset 33) raised from 0x32 to 0xff
    String message = rejection(errorReplyWith(36, "ff"));
    assertTrue(message.contains("metadata length 255 exceeds the 54 bytes left in the frame"), message);
  }

  @Test
  void aGarbageMetadataKeyLengthIsRejected() {
    // the first key length (offset 37) raised from 0x0e to 0x60: beyond the metadata block
    String message = rejection(errorReplyWith(40, "60"));
    assertTrue(message.contains("metadata key length 96 exceeds"), message);
  }

  @Test
  void aPayloadLengthThatDisagreesWithTheFrameIsRejected() {
    String message = rejection(errorReplyWith(90, "01"));
    assertTrue(message.contains("payload length 1 exceeds the 0 bytes left in the frame"), message);
  }

  @Test
  void aTruncatedFrameIsNotDecodedAndWaitsForTheRest() {
    byte[] frame = ByteBufUtil.decodeHexDump(TestVectors.ERROR_REPLY);
    EmbeddedChannel channel = new EmbeddedChannel(new RpcxDecoder());
    assertFalse(channel.writeInbound(Unpooled.wrappedBuffer(Arrays.copyOf(frame, frame.length - 1))));
    assertNull(channel.readInbound());
    assertTrue(channel.writeInbound(Unpooled.wrappedBuffer(frame, frame.length - 1, 1)));
    assertNotNull(channel.readInbound());
    channel.finishAndReleaseAll();
  }

  @Test
  void anUnknownSerializeTypeIsRejected() {
    String message = rejection(errorReplyWith(3, "70"));
    assertTrue(message.contains("unknown serialize type 7 (expected 0 none, 1 JSON, 2 protobuf, 3 MsgPack or 4 Thrift)"), message);
  }

  @Test
  void anUnknownCompressTypeIsRejected() {
    String message = rejection(errorReplyWith(2, "8d")); // 0x0c: compress type 3
    assertTrue(message.contains("unknown compress type 3 (expected 0 none or 1 gzip)"), message);
  }

  @Test
  void anUnknownStatusIsRejected() {
    String message = rejection(errorReplyWith(2, "83"));
    assertTrue(message.contains("unknown message status 3"), message);
  }

  @Test
  void aPayloadMarkedGzipThatIsNotGzipIsRejected() {
    RpcxMessage plain = RpcxMessage.request("Hello", "Say").payload(new byte[] {1, 2, 3}).build();
    io.netty.buffer.ByteBuf frame = Unpooled.buffer();
    RpcxEncoder.encode(plain, frame);
    frame.setByte(2, 0x04); // gzip, but the payload is not compressed
    String message = rejection(ByteBufUtil.getBytes(frame), 1024);
    assertTrue(message.contains("the payload is marked gzip but is not valid gzip"), message);
  }

  @Test
  void aGzipBombIsStoppedAtTheMaximumFrameLength() {
    RpcxMessage bomb =
        RpcxMessage.request("Hello", "Say").compressType(CompressType.GZIP).payload(new byte[10_000_000]).build();
    io.netty.buffer.ByteBuf frame = Unpooled.buffer();
    RpcxEncoder.encode(bomb, frame);
    assertTrue(frame.readableBytes() < 20_000, "10 MB of zeros compress to about 10 kB");
    String message = rejection(ByteBufUtil.getBytes(frame), 1 << 20);
    assertTrue(message.contains("gzip payload inflates beyond the maximum frame size of 1048576 bytes"), message);
  }

  @Test
  void afterAMalformedFrameEverythingElseOnTheConnectionIsDiscarded() {
    EmbeddedChannel channel = new EmbeddedChannel(new RpcxDecoder());
    assertThrows(
        DecoderException.class,
        () -> channel.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump("ff"))));
    assertFalse(channel.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(TestVectors.ERROR_REPLY))));
    assertNull(channel.readInbound(), "the stream lost its framing: nothing after the error is trusted");
    channel.finishAndReleaseAll();
  }

  @Test
  void aMaximumFrameLengthBelowTheSmallestFrameIsABadSetting() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new RpcxDecoder(8));
    assertEquals("rpcx maximum frame length: expected at least 16 bytes, got 8", e.getMessage());
  }
}
