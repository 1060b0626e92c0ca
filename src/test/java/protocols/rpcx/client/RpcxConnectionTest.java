package protocols.rpcx.client;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import protocols.core.HostAndPort;
import protocols.rpcx.RawServer;
import protocols.rpcx.codec.CompressType;
import protocols.rpcx.codec.RpcxMessage;
import protocols.rpcx.codec.SerializeType;
import protocols.rpcx.server.RpcxServer;

/** One rpcx connection against the Java server and against broken peers. Every call ends. */
class RpcxConnectionTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private final List<AutoCloseable> open = new ArrayList<>();

  @AfterEach
  void closeAll() throws Exception {
    for (AutoCloseable c : open) {
      c.close();
    }
  }

  private RpcxServer server(RpcxServer.Builder builder) throws InterruptedException {
    RpcxServer server = builder.start("127.0.0.1", 0);
    open.add(server);
    return server;
  }

  private RpcxConnection connect(int port) {
    return connect(RpcxClientSettings.of(new HostAndPort("127.0.0.1", port)));
  }

  private RpcxConnection connect(RpcxClientSettings settings) {
    RpcxConnection connection = RpcxConnection.open(settings);
    open.add(connection);
    return connection;
  }

  private RawServer raw(RawServer.Script script) throws IOException {
    RawServer server = new RawServer(script);
    open.add(server);
    return server;
  }

  private static RpcxMessage request(String path, String method, String payload) {
    return RpcxMessage.request(path, method).payload(payload.getBytes(StandardCharsets.UTF_8)).build();
  }

  private static RpcxException failure(CompletableFuture<?> call) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
    return assertInstanceOf(RpcxException.class, e.getCause());
  }

  private static RpcxServer.Builder echo() {
    return RpcxServer.builder()
        .register("Echo", "Echo", r -> CompletableFuture.completedFuture(r.payload()))
        .register(
            "Echo",
            "Later",
            r -> {
              // replies come back in another order than the requests went
              CompletableFuture<byte[]> later = new CompletableFuture<>();
              CompletableFuture.delayedExecutor(ThreadLocalRandom.current().nextInt(20), TimeUnit.MILLISECONDS)
                  .execute(() -> later.complete(r.payload()));
              return later;
            })
        .register(
            "Echo",
            "Metadata",
            r -> CompletableFuture.completedFuture(r.metadata().toString().getBytes(StandardCharsets.UTF_8)))
        .register(
            "Echo",
            "Compression",
            r -> CompletableFuture.completedFuture((r.compressType() + " " + r.payloadLength()).getBytes(StandardCharsets.UTF_8)))
        .register("Echo", "Never", r -> new CompletableFuture<>());
  }

  @Test
  void manyCallsInFlightOnOneConnectionAreMatchedBySequenceNumber() throws Exception {
    RpcxConnection connection = connect(server(echo()).port());
    List<CompletableFuture<RpcxMessage>> calls = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      calls.add(connection.call(request("Echo", "Later", "call " + i), TIMEOUT));
    }
    for (int i = 0; i < calls.size(); i++) {
      RpcxMessage reply = calls.get(i).get(10, TimeUnit.SECONDS);
      assertEquals("call " + i, new String(reply.payload(), StandardCharsets.UTF_8));
      assertEquals(i, reply.seq(), "sequence numbers count up from 0 per connection");
    }
    assertEquals(0, connection.pendingCalls());
  }

  @Test
  void anErrorReplyFailsTheCallWithTheServersMessage() throws Exception {
    RpcxConnection connection = connect(server(echo()).port());

    RpcxException method = failure(connection.call(request("Echo", "Nope", ""), TIMEOUT));
    RpcxException service = failure(connection.call(request("Nope", "Echo", ""), TIMEOUT));

    assertEquals(RpcxException.SERVER_ERROR, method.status());
    assertEquals("rpcx: can't find method Nope", method.getMessage());
    assertEquals("rpcx: can't find service Nope", service.getMessage());
    assertTrue(connection.isUsable(), "an error reply is an answer: the connection is fine");
  }

  @Test
  void theTimeoutIsSentAsServerTimeoutAlongWithTheCallsMetadata() throws Exception {
    RpcxConnection connection = connect(server(echo()).port());
    RpcxMessage call =
        RpcxMessage.request("Echo", "Metadata").putMetadata("__AUTH", "secret").build();

    RpcxMessage reply = connection.call(call, Duration.ofMillis(1500)).get(10, TimeUnit.SECONDS);

    assertEquals("{__AUTH=secret, __ServerTimeout=1500}", new String(reply.payload(), StandardCharsets.UTF_8));
  }

  @Test
  void aCallWithoutReplyEndsAtItsTimeout() throws Exception {
    int port = server(echo()).port();
    RpcxConnection connection = connect(port);

    long start = System.nanoTime();
    RpcxException e = failure(connection.call(request("Echo", "Never", ""), Duration.ofMillis(200)));

    assertEquals(RpcxException.TIMEOUT, e.status());
    assertEquals("no reply from 127.0.0.1:" + port + " within 200 ms", e.getMessage());
    assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(2));
    assertEquals(0, connection.pendingCalls(), "a timed-out call is forgotten");
  }

  @Test
  void aHeartbeatIsEchoedByTheServer() throws Exception {
    RpcxConnection connection = connect(server(echo()).port());
    Duration roundTrip = connection.heartbeat(TIMEOUT).get(10, TimeUnit.SECONDS);
    assertTrue(roundTrip.compareTo(TIMEOUT) < 0);
  }

  @Test
  void withGzipOnlyPayloadsOver1024BytesAreCompressed() throws Exception {
    RpcxConnection connection =
        connect(RpcxClientSettings.of(new HostAndPort("127.0.0.1", server(echo()).port())).withCompression(CompressType.GZIP));

    String big = new String(connection.call(request("Echo", "Compression", "x".repeat(2000)), TIMEOUT).get().payload(), StandardCharsets.UTF_8);
    String small = new String(connection.call(request("Echo", "Compression", "x".repeat(1024)), TIMEOUT).get().payload(), StandardCharsets.UTF_8);
    RpcxMessage echoed = connection.call(request("Echo", "Echo", "y".repeat(3000)), TIMEOUT).get();

    assertEquals("GZIP 2000", big, "the server saw a gzip frame and got the 2000 bytes back");
    assertEquals("NONE 1024", small);
    assertEquals(CompressType.GZIP, echoed.compressType(), "a reply over 1024 bytes to a gzip request is gzipped");
    assertEquals("y".repeat(3000), new String(echoed.payload(), StandardCharsets.UTF_8));
  }

  @Test
  void aRefusedConnectionFailsItsCallsAndIsNoLongerUsable() throws Exception {
    int port;
    try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
      port = free.getLocalPort();
    }
    RpcxConnection connection = connect(port);

    RpcxException e = failure(connection.call(request("Echo", "Echo", ""), TIMEOUT));

    assertEquals(RpcxException.CONNECTION, e.status());
    assertEquals("connection to 127.0.0.1:" + port + " refused", e.getMessage());
    assertFalse(connection.isUsable());
  }

  @Test
  void aMalformedReplyClosesTheConnectionAndFailsAllItsPendingCalls() throws Exception {
    RawServer server =
        raw(s -> {
          RawServer.readFrame(s);
          RawServer.readFrame(s);
          RawServer.readFrame(s);
          s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
          s.getInputStream().read(); // until the client hangs up
        });
    RpcxConnection connection = connect(server.port());

    List<CompletableFuture<RpcxMessage>> calls = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      calls.add(connection.call(request("Echo", "Echo", "x"), TIMEOUT));
    }

    for (CompletableFuture<RpcxMessage> call : calls) {
      RpcxException e = failure(call);
      assertEquals(RpcxException.PROTOCOL_ERROR, e.status());
      assertEquals(
          "connection to " + server.address() + " closed: malformed frame from the server: wrong magic number 0x48 (expected 0x08): not an rpcx frame",
          e.getMessage());
    }
    assertFalse(connection.isUsable());
    assertEquals(RpcxException.PROTOCOL_ERROR, failure(connection.call(request("Echo", "Echo", "x"), TIMEOUT)).status());
  }

  @Test
  void aHostileLengthFromTheServerIsRefusedWithoutAllocating() throws Exception {
    RawServer server =
        raw(s -> {
          RawServer.readFrame(s);
          OutputStream out = s.getOutputStream();
          out.write(new byte[] {8, 0, (byte) 0x80, 0x20, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xf0});
          out.flush();
          s.getInputStream().read();
        });
    RpcxConnection connection = connect(RpcxClientSettings.of(HostAndPort.parse(server.address(), "test")).withMaxFrameLength(1 << 20));

    RpcxException e = failure(connection.call(request("Echo", "Echo", "x"), TIMEOUT));

    assertEquals(RpcxException.PROTOCOL_ERROR, e.status());
    assertTrue(e.getMessage().contains("frame length 4294967280 exceeds the maximum of 1048576 bytes"), e.getMessage());
  }

  @Test
  void aServerThatHangsUpFailsThePendingCalls() throws Exception {
    RawServer server =
        raw(s -> {
          RawServer.readFrame(s);
          s.close();
        });
    RpcxConnection connection = connect(server.port());

    RpcxException e = failure(connection.call(request("Echo", "Echo", "x"), TIMEOUT));

    assertEquals(RpcxException.CONNECTION, e.status());
    assertEquals("connection to " + server.address() + " closed by the server", e.getMessage());
    assertFalse(connection.isUsable());
  }

  @Test
  void anUnansweredHeartbeatClosesTheConnection() throws Exception {
    AtomicReference<Integer> frames = new AtomicReference<>(0);
    RawServer server =
        raw(s -> {
          while (true) {
            RawServer.readFrame(s); // reads, never answers
            frames.updateAndGet(n -> n + 1);
          }
        });
    RpcxConnection connection =
        connect(RpcxClientSettings.of(HostAndPort.parse(server.address(), "test")).withHeartbeat(Duration.ofMillis(200)));

    CompletableFuture<RpcxMessage> pending = connection.call(request("Echo", "Echo", "x"), Duration.ofSeconds(30));
    RpcxException e = failure(pending);

    assertEquals(RpcxException.CONNECTION, e.status());
    assertTrue(e.getMessage().contains("heartbeat failed (no reply from " + server.address() + " within 1000 ms)"), e.getMessage());
    assertFalse(connection.isUsable());
  }

  @Test
  void aOnewayCallEndsWhenWrittenAndGetsNoReply() throws Exception {
    RpcxServer server = server(echo());
    RpcxConnection connection = connect(server.port());

    RpcxMessage reply = connection.call(RpcxMessage.request("Echo", "Echo").oneway(true).build(), TIMEOUT).get(5, TimeUnit.SECONDS);
    RpcxMessage next = connection.call(request("Echo", "Echo", "after"), TIMEOUT).get(5, TimeUnit.SECONDS);

    assertNull(reply);
    assertEquals(1, next.seq(), "the oneway request used seq 0 and got no reply; the next call's reply is its own");
    assertEquals(Map.of(), next.metadata());
    assertEquals(SerializeType.NONE, next.serializeType());
  }
}
