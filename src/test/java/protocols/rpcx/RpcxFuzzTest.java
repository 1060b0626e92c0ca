package protocols.rpcx;

import static org.junit.jupiter.api.Assertions.*;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import benchmark.rpcx.RpcxBenchmarkServer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.DecoderException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import protocols.core.HostAndPort;
import protocols.rpcx.client.RpcxClientSettings;
import protocols.rpcx.client.RpcxConnection;
import protocols.rpcx.codec.CompressType;
import protocols.rpcx.codec.RpcxDecoder;
import protocols.rpcx.codec.RpcxEncoder;
import protocols.rpcx.codec.RpcxFrameException;
import protocols.rpcx.codec.RpcxMessage;
import protocols.rpcx.codec.SerializeType;

/**
 * Generated input, seeded and bounded: thousands of random and mutated frames thrown at the decoder and
 * at the Java server. The decoder either decodes or raises its own clear error, never anything else and
 * never a large allocation; the server drops bad connections and keeps answering good ones.
 */
class RpcxFuzzTest {

  private static final long SEED = 20161130L;
  private static final int MAX_FRAME = 64 * 1024;

  /** Valid frames to mutate: the kinds of frame the protocol has. */
  static List<byte[]> seeds() {
    byte[] request = BenchmarkMessages.request().toByteArray();
    List<RpcxMessage> messages =
        List.of(
            RpcxMessage.request("Hello", "Say").serializeType(SerializeType.PROTOBUF).payload(request).build(),
            RpcxMessage.request("Hello", "Say")
                .serializeType(SerializeType.PROTOBUF)
                .seq(5)
                .putMetadata("__ServerTimeout", "1000")
                .putMetadata("__AUTH", "token")
                .payload(request)
                .build(),
            RpcxMessage.request("Hello", "Say").compressType(CompressType.GZIP).serializeType(SerializeType.PROTOBUF).payload(request).build(),
            RpcxMessage.builder().heartbeat(true).serializeType(SerializeType.MSGPACK).payload(protocols.rpcx.codec.MsgPack.int64(42)).build(),
            RpcxMessage.request("Hello", "Nope").seq(7).build().errorReply("rpcx: can't find method Nope"));
    List<byte[]> frames = new ArrayList<>();
    for (RpcxMessage m : messages) {
      ByteBuf buf = Unpooled.buffer();
      RpcxEncoder.encode(m, buf);
      byte[] bytes = new byte[buf.readableBytes()];
      buf.readBytes(bytes);
      frames.add(bytes);
    }
    return frames;
  }

  /** A random input: pure noise, noise behind a valid magic byte, or a valid frame mutated. */
  static byte[] generate(Random random, List<byte[]> seeds) {
    int kind = random.nextInt(6);
    if (kind == 0) {
      byte[] noise = new byte[random.nextInt(64)];
      random.nextBytes(noise);
      return noise;
    }
    if (kind == 1) {
      byte[] noise = new byte[16 + random.nextInt(64)];
      random.nextBytes(noise);
      noise[0] = RpcxMessage.MAGIC;
      return noise;
    }
    byte[] frame = seeds.get(random.nextInt(seeds.size())).clone();
    switch (kind) {
      case 2 -> { // flip a few bytes anywhere
        for (int i = 1 + random.nextInt(4); i > 0; i--) {
          frame[random.nextInt(frame.length)] = (byte) random.nextInt(256);
        }
      }
      case 3 -> { // a hostile value in one of the length fields or the header
        int at = random.nextInt(Math.min(frame.length - 4, 48));
        int value = switch (random.nextInt(4)) {
          case 0 -> -1;
          case 1 -> Integer.MAX_VALUE;
          case 2 -> MAX_FRAME + 1;
          default -> random.nextInt(4096);
        };
        frame[at] = (byte) (value >>> 24);
        frame[at + 1] = (byte) (value >>> 16);
        frame[at + 2] = (byte) (value >>> 8);
        frame[at + 3] = (byte) value;
      }
      case 4 -> { // truncated
        return java.util.Arrays.copyOf(frame, random.nextInt(frame.length));
      }
      default -> { // header bits: unknown serialize, compress and status values
        frame[2] = (byte) random.nextInt(256);
        frame[3] = (byte) random.nextInt(256);
      }
    }
    return frame;
  }

  @Test
  void theDecoderDecodesOrRejectsEachOfFiveThousandGeneratedInputsWithItsOwnError() {
    Random random = new Random(SEED);
    List<byte[]> seeds = seeds();
    int decoded = 0;
    int rejected = 0;
    int waiting = 0;
    for (int i = 0; i < 5000; i++) {
      byte[] input = generate(random, seeds);
      EmbeddedChannel channel = new EmbeddedChannel(new RpcxDecoder(MAX_FRAME));
      try {
        channel.writeInbound(Unpooled.wrappedBuffer(input));
        if (channel.readInbound() != null) {
          decoded++;
        } else {
          waiting++; // an incomplete frame: the decoder waits for more
        }
      } catch (DecoderException e) {
        assertInstanceOf(RpcxFrameException.class, e, "input " + i + " raised something other than a frame error: " + e);
        assertNotNull(e.getMessage());
        rejected++;
      } finally {
        channel.finishAndReleaseAll();
      }
    }
    assertTrue(rejected > 1000, "most generated inputs are malformed: " + rejected);
    assertTrue(decoded > 100, "some mutations leave a valid frame: " + decoded);
    assertEquals(5000, decoded + rejected + waiting);
  }

  @Test
  void theJavaServerSurvivesThousandsOfBadFramesAndKeepsAnsweringValidClients() throws Exception {
    Random random = new Random(SEED + 1);
    List<byte[]> seeds = seeds();
    try (RpcxBenchmarkServer server = RpcxBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO)) {
      RpcxConnection valid = RpcxConnection.open(RpcxClientSettings.of(new HostAndPort("127.0.0.1", server.port())));
      try {
        RpcxMessage say =
            RpcxMessage.request("Hello", "Say").serializeType(SerializeType.PROTOBUF).payload(BenchmarkMessages.request().toByteArray()).build();
        int sent = 0;
        for (int connection = 0; connection < 250; connection++) {
          try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 2000);
            socket.setSoLinger(true, 0); // reset at close: no TIME_WAIT pile-up
            OutputStream out = socket.getOutputStream();
            for (int frame = 0; frame < 8; frame++) { // after the first bad frame the server hangs up
              try {
                out.write(generate(random, seeds));
                sent++;
              } catch (IOException e) {
                break;
              }
            }
          }
          if (connection % 25 == 0) {
            RpcxMessage reply = valid.call(say, Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
            assertEquals("OK", BenchmarkMessage.parseFrom(reply.payloadBuffer()).getField1());
          }
        }
        assertTrue(sent >= 1000, "frames sent: " + sent);
        assertTrue(valid.isUsable(), "the well-behaved client's connection was never disturbed");
        RpcxMessage reply = valid.call(say, Duration.ofSeconds(5)).get(10, TimeUnit.SECONDS);
        assertEquals("OK", BenchmarkMessage.parseFrom(reply.payloadBuffer()).getField1());
        assertTrue(server.malformedFrames() > 50, "bad frames closed their connections: " + server.malformedFrames());
      } finally {
        valid.close();
      }
    }
  }
}
