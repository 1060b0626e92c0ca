package protocols.rpcx.codec;

import static org.junit.jupiter.api.Assertions.*;

import benchmark.BenchmarkMessages;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The encoder and decoder reproduce the reference's five test vectors (frames written by rpcx's own Go
 * encoder) byte for byte, in both directions, through real Netty pipelines.
 */
class RpcxCodecTest {

  private static final byte[] JSON_PAYLOAD =
      "{\n\t\t\"A\": 1,\n\t\t\"B\": 2,\n\t}\n\t".getBytes(StandardCharsets.UTF_8);

  static RpcxMessage benchmarkRequest() {
    return RpcxMessage.request("Hello", "Say")
        .serializeType(SerializeType.PROTOBUF)
        .seq(0)
        .payload(BenchmarkMessages.request().toByteArray())
        .build();
  }

  static RpcxMessage benchmarkReply() {
    return benchmarkRequest()
        .replyBuilder()
        .payload(BenchmarkMessages.reply(BenchmarkMessages.request()).toByteArray())
        .build();
  }

  static RpcxMessage errorReply() {
    return RpcxMessage.request("Hello", "Nope")
        .serializeType(SerializeType.PROTOBUF)
        .seq(7)
        .build()
        .errorReply("rpcx: can't find method Nope");
  }

  static RpcxMessage heartbeat() {
    return RpcxMessage.builder()
        .heartbeat(true)
        .serializeType(SerializeType.MSGPACK)
        .seq(1)
        .payload(MsgPack.int64(42))
        .build();
  }

  static RpcxMessage jsonRequest() {
    return RpcxMessage.request("Arith", "Add")
        .serializeType(SerializeType.JSON)
        .seq(1234567890L)
        .putMetadata("__ID", "6ba7b810-9dad-11d1-80b4-00c04fd430c9")
        .payload(JSON_PAYLOAD)
        .build();
  }

  static String encode(RpcxMessage message) {
    EmbeddedChannel channel = new EmbeddedChannel(new RpcxEncoder());
    assertTrue(channel.writeOutbound(message));
    ByteBuf frame = channel.readOutbound();
    try {
      return ByteBufUtil.hexDump(frame);
    } finally {
      frame.release();
      channel.finishAndReleaseAll();
    }
  }

  static RpcxMessage decode(String hex) {
    EmbeddedChannel channel = new EmbeddedChannel(new RpcxDecoder());
    assertTrue(channel.writeInbound(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(hex))));
    RpcxMessage message = channel.readInbound();
    assertNull(channel.readInbound(), "exactly one frame");
    assertFalse(channel.finish());
    return message;
  }

  @Test
  void theBenchmarkRequestEncodesToRpcxsBytes() {
    assertEquals(581, BenchmarkMessages.request().getSerializedSize());
    assertEquals(TestVectors.BENCHMARK_REQUEST, encode(benchmarkRequest()));
    assertEquals(621, TestVectors.BENCHMARK_REQUEST.length() / 2);
  }

  @Test
  void theBenchmarkRequestDecodesFromRpcxsBytes() {
    RpcxMessage m = decode(TestVectors.BENCHMARK_REQUEST);
    assertFalse(m.isResponse());
    assertFalse(m.isHeartbeat());
    assertFalse(m.isOneway());
    assertFalse(m.isError());
    assertEquals(CompressType.NONE, m.compressType());
    assertEquals(SerializeType.PROTOBUF, m.serializeType());
    assertEquals(0, m.seq());
    assertEquals("Hello", m.servicePath());
    assertEquals("Say", m.serviceMethod());
    assertEquals(Map.of(), m.metadata());
    assertArrayEquals(BenchmarkMessages.request().toByteArray(), m.payload());
    assertEquals(benchmarkRequest(), m);
  }

  @Test
  void theBenchmarkReplyEncodesToRpcxsBytes() {
    assertEquals(TestVectors.BENCHMARK_REPLY, encode(benchmarkReply()));
  }

  @Test
  void theBenchmarkReplyDecodesFromRpcxsBytes() throws Exception {
    RpcxMessage m = decode(TestVectors.BENCHMARK_REPLY);
    assertTrue(m.isResponse());
    assertFalse(m.isError());
    assertEquals(SerializeType.PROTOBUF, m.serializeType());
    assertEquals("Hello", m.servicePath());
    assertEquals("Say", m.serviceMethod());
    assertEquals(527, m.payloadLength());
    benchmark.pb.BenchmarkMessage reply = benchmark.pb.BenchmarkMessage.parseFrom(m.payloadBuffer());
    assertEquals("OK", reply.getField1());
    assertEquals(100, reply.getField2());
    assertEquals(benchmarkReply(), m);
  }

  @Test
  void aPayloadReadByProtobufsReaderIsTheMessageAndStaysUnchanged() throws Exception {
    RpcxMessage m = decode(TestVectors.BENCHMARK_REPLY);
    byte[] before = m.payload();

    benchmark.pb.BenchmarkMessage reply = benchmark.pb.BenchmarkMessage.parser().parseFrom(m.payloadReader());

    assertEquals(benchmark.pb.BenchmarkMessage.parseFrom(before), reply);
    assertArrayEquals(before, m.payload());
  }

  @Test
  void anErrorReplyEncodesToRpcxsBytes() {
    assertEquals(TestVectors.ERROR_REPLY, encode(errorReply()));
  }

  @Test
  void anErrorReplyDecodesWithItsMessage() {
    RpcxMessage m = decode(TestVectors.ERROR_REPLY);
    assertTrue(m.isResponse());
    assertTrue(m.isError());
    assertEquals(7, m.seq());
    assertEquals("Hello", m.servicePath());
    assertEquals("Nope", m.serviceMethod());
    assertEquals("rpcx: can't find method Nope", m.errorMessage());
    assertEquals(Map.of(RpcxMessage.ERROR_KEY, "rpcx: can't find method Nope"), m.metadata());
    assertEquals(0, m.payloadLength());
    assertEquals(errorReply(), m);
  }

  @Test
  void aHeartbeatEncodesToRpcxsBytes() {
    assertEquals(TestVectors.HEARTBEAT_REQUEST, encode(heartbeat()));
  }

  @Test
  void aHeartbeatDecodesWithItsMsgPackTimestamp() {
    RpcxMessage m = decode(TestVectors.HEARTBEAT_REQUEST);
    assertTrue(m.isHeartbeat());
    assertFalse(m.isResponse());
    assertEquals(SerializeType.MSGPACK, m.serializeType());
    assertEquals(1, m.seq());
    assertEquals("", m.servicePath());
    assertEquals("", m.serviceMethod());
    assertArrayEquals(MsgPack.int64(42), m.payload());
    assertEquals(heartbeat(), m);
  }

  @Test
  void aJsonRequestWithMetadataEncodesToRpcxsBytes() {
    assertEquals(TestVectors.JSON_REQUEST, encode(jsonRequest()));
  }

  @Test
  void aJsonRequestWithMetadataDecodesFromRpcxsBytes() {
    RpcxMessage m = decode(TestVectors.JSON_REQUEST);
    assertEquals(SerializeType.JSON, m.serializeType());
    assertEquals(1234567890L, m.seq());
    assertEquals("Arith", m.servicePath());
    assertEquals("Add", m.serviceMethod());
    assertEquals(Map.of("__ID", "6ba7b810-9dad-11d1-80b4-00c04fd430c9"), m.metadata());
    assertArrayEquals(JSON_PAYLOAD, m.payload());
    assertEquals(jsonRequest(), m);
  }

  @Test
  void framesSplitAnywhereAndBatchedTogetherDecodeTheSame() {
    byte[] all =
        ByteBufUtil.decodeHexDump(
            TestVectors.BENCHMARK_REQUEST + TestVectors.ERROR_REPLY + TestVectors.HEARTBEAT_REQUEST + TestVectors.JSON_REQUEST);
    EmbeddedChannel channel = new EmbeddedChannel(new RpcxDecoder());
    for (int i = 0; i < all.length; i += 7) {
      channel.writeInbound(Unpooled.wrappedBuffer(all, i, Math.min(7, all.length - i)));
    }
    assertEquals(benchmarkRequest(), channel.readInbound());
    assertEquals(errorReply(), channel.readInbound());
    assertEquals(heartbeat(), channel.readInbound());
    assertEquals(jsonRequest(), channel.readInbound());
    assertNull(channel.readInbound());
    assertFalse(channel.finish());
  }

  @Test
  void aGzipPayloadIsCompressedOnTheWireAndRestoredOnDecoding() {
    byte[] big = new byte[5000];
    java.util.Arrays.fill(big, (byte) 'a');
    RpcxMessage m =
        RpcxMessage.request("Hello", "Say").compressType(CompressType.GZIP).payload(big).seq(3).build();
    String hex = encode(m);
    assertTrue(hex.length() / 2 < 200, "5000 equal bytes gzip to a few dozen: " + hex.length() / 2);
    assertEquals("08000400", hex.substring(0, 8), "compress bits 0x04 (gzip << 2)");
    assertEquals(m, decode(hex));
  }

  @Test
  void aMessageKeepsItsMetadataWhenTheBuilderItCameFromOrWentToChanges() {
    RpcxMessage.Builder builder = RpcxMessage.request("Hello", "Say").putMetadata("a", "1");
    RpcxMessage first = builder.build();
    RpcxMessage second = builder.putMetadata("b", "2").build();
    RpcxMessage copy = second.toBuilder().putMetadata("c", "3").build();

    assertEquals(Map.of("a", "1"), first.metadata());
    assertEquals(Map.of("a", "1", "b", "2"), second.metadata());
    assertEquals(Map.of("a", "1", "b", "2", "c", "3"), copy.metadata());
    assertThrows(UnsupportedOperationException.class, () -> builder.build().metadata().put("d", "4"));
  }
}
