package protocols.rpcx.server;

import static org.junit.jupiter.api.Assertions.*;

import benchmark.rpcx.RpcxBenchmarkServer;
import io.netty.buffer.ByteBufUtil;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import protocols.rpcx.RawServer;
import protocols.rpcx.codec.TestVectors;

/**
 * The Java benchmark server on the wire, byte for byte against the frames rpcx's Go server produces,
 * and against clients that send what is not rpcx.
 */
class RpcxBenchmarkServerTest {

  private RpcxBenchmarkServer server;

  @BeforeEach
  void start() throws Exception {
    server = RpcxBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private Socket connect() throws IOException {
    Socket socket = new Socket();
    socket.connect(new InetSocketAddress("127.0.0.1", server.port()), 2000);
    socket.setSoTimeout(5000);
    return socket;
  }

  private static String exchange(Socket socket, String requestHex) throws IOException {
    OutputStream out = socket.getOutputStream();
    out.write(ByteBufUtil.decodeHexDump(requestHex));
    out.flush();
    return ByteBufUtil.hexDump(RawServer.readFrame(socket));
  }

  /** The request the error-reply vector answers: seq 7, Hello.Nope, protobuf, no metadata, no payload. */
  private static final String NOPE_REQUEST =
      "08000020" + "0000000000000007" + "00000019" + "0000000548656c6c6f" + "000000044e6f7065" + "00000000" + "00000000";

  @Test
  void theBenchmarkRequestGetsExactlyTheReplyRpcxsGoServerSends() throws Exception {
    try (Socket socket = connect()) {
      assertEquals(TestVectors.BENCHMARK_REPLY, exchange(socket, TestVectors.BENCHMARK_REQUEST));
    }
  }

  @Test
  void anUnknownMethodGetsExactlyRpcxsErrorReply() throws Exception {
    try (Socket socket = connect()) {
      assertEquals(TestVectors.ERROR_REPLY, exchange(socket, NOPE_REQUEST));
    }
  }

  @Test
  void aHeartbeatIsSentBackUnchangedWithTheResponseBit() throws Exception {
    String expected = TestVectors.HEARTBEAT_REQUEST.substring(0, 4) + "c0" + TestVectors.HEARTBEAT_REQUEST.substring(6);
    try (Socket socket = connect()) {
      assertEquals(expected, exchange(socket, TestVectors.HEARTBEAT_REQUEST));
    }
  }

  @Test
  void aOnewayRequestGetsNoReply() throws Exception {
    String oneway = TestVectors.BENCHMARK_REQUEST.substring(0, 4) + "20" + TestVectors.BENCHMARK_REQUEST.substring(6);
    try (Socket socket = connect()) {
      socket.getOutputStream().write(ByteBufUtil.decodeHexDump(oneway));
      // the next reply on the connection is the heartbeat's: nothing came for the oneway request
      String heartbeatReply = exchange(socket, TestVectors.HEARTBEAT_REQUEST);
      assertEquals("0800c030", heartbeatReply.substring(0, 8));
    }
  }

  @Test
  void aClientSendingSomethingElseIsDisconnectedAndOthersAreStillServed() throws Exception {
    try (Socket http = connect(); Socket rpcx = connect()) {
      http.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes());
      assertEquals(-1, readUntilClosed(http.getInputStream()), "the server hung up on the non-rpcx client");
      assertEquals(TestVectors.BENCHMARK_REPLY, exchange(rpcx, TestVectors.BENCHMARK_REQUEST));
    }
    assertEquals(1, server.malformedFrames());
  }

  @Test
  void aHostileLengthPrefixFromAClientIsRefusedAtOnce() throws Exception {
    try (Socket socket = connect()) {
      socket.getOutputStream().write(ByteBufUtil.decodeHexDump("08000020" + "0000000000000000" + "fffffff0"));
      assertEquals(-1, readUntilClosed(socket.getInputStream()), "refused without waiting for 4 GiB");
    }
  }

  @Test
  void aPayloadThatIsNotABenchmarkMessageGetsAnErrorReply() throws Exception {
    // Hello.Say, protobuf, payload 0xff: not a BenchmarkMessage
    String garbage = "08000020" + "0000000000000003" + "00000019" + "0000000548656c6c6f" + "00000003536179" + "00000000" + "00000001ff";
    try (Socket socket = connect()) {
      String reply = exchange(socket, garbage);
      assertEquals("08008120", reply.substring(0, 8), "a response with status error");
      String text = new String(ByteBufUtil.decodeHexDump(reply), java.nio.charset.StandardCharsets.UTF_8);
      assertTrue(text.contains("__rpcx_error__"), text);
    }
  }

  private static int readUntilClosed(InputStream in) throws IOException {
    try {
      int b;
      while ((b = in.read()) != -1) {
        // the server sends nothing to a bad client; drain until it closes
      }
      return b;
    } catch (SocketTimeoutException e) {
      return 0;
    } catch (java.net.SocketException e) {
      return -1; // reset: closed as well
    }
  }
}
