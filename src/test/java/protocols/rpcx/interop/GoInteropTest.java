package protocols.rpcx.interop;

import static org.junit.jupiter.api.Assertions.*;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import benchmark.rpcx.RpcxBenchmarkServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.rpcx.client.RpcxClientSettings;
import protocols.rpcx.client.RpcxConnection;
import protocols.rpcx.client.RpcxException;
import protocols.rpcx.codec.RpcxMessage;
import protocols.rpcx.codec.SerializeType;
import protocols.testkit.GatlingRun;
import simulations.RpcxSimulation;

/**
 * The Java side against the real rpcx (github.com/smallnest/rpcx v1.9.4, Go), both directions: this
 * project's client and simulation against the Go server, and rpcx's own Go client against the Java
 * server. Needs Go; the programs are built from interop/rpcx.
 */
class GoInteropTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(5);
  private GoPrograms.Server goServer;
  private RpcxConnection connection;

  @BeforeAll
  static void buildGoPrograms() throws Exception {
    GoPrograms.build();
  }

  @AfterEach
  void stop() throws Exception {
    if (connection != null) {
      connection.close();
    }
    if (goServer != null) {
      goServer.close();
    }
  }

  private RpcxConnection connectToGo() throws Exception {
    goServer = new GoPrograms.Server();
    connection = RpcxConnection.open(RpcxClientSettings.of(goServer.address));
    return connection;
  }

  private static RpcxMessage say(String method) {
    return RpcxMessage.request("Hello", method)
        .serializeType(SerializeType.PROTOBUF)
        .payload(BenchmarkMessages.request().toByteArray())
        .build();
  }

  private static RpcxException failure(java.util.concurrent.CompletableFuture<?> call) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> call.get(10, TimeUnit.SECONDS));
    return assertInstanceOf(RpcxException.class, e.getCause());
  }

  @Test
  void theJavaClientGetsTheServerRulesReplyFromTheGoServer() throws Exception {
    RpcxMessage reply = connectToGo().call(say("Say"), TIMEOUT).get(10, TimeUnit.SECONDS);

    BenchmarkMessage message = BenchmarkMessage.parseFrom(reply.payloadBuffer());
    assertEquals("OK", message.getField1());
    assertEquals(100, message.getField2());
    assertEquals(BenchmarkMessages.reply(BenchmarkMessages.request()), message);
    assertTrue(reply.isResponse());
    assertEquals("Hello", reply.servicePath());
    assertEquals("Say", reply.serviceMethod());
  }

  @Test
  void theGoServerAnswersAnUnknownMethodOrServiceWithAnErrorReply() throws Exception {
    RpcxConnection go = connectToGo();

    RpcxException method = failure(go.call(say("Nope"), TIMEOUT));
    RpcxException service = failure(go.call(RpcxMessage.request("Nope", "Say").serializeType(SerializeType.PROTOBUF).build(), TIMEOUT));

    assertEquals(RpcxException.SERVER_ERROR, method.status());
    assertEquals("rpcx: can't find method Nope", method.getMessage());
    assertEquals("rpcx: can't find service Nope", service.getMessage());
    assertTrue(go.isUsable());
  }

  @Test
  void aGzippedJsonCallIsUnderstoodAndAnsweredGzippedByTheGoServer() throws Exception {
    goServer = new GoPrograms.Server();
    connection =
        RpcxConnection.open(
            RpcxClientSettings.of(goServer.address).withCompression(protocols.rpcx.codec.CompressType.GZIP));
    String longText = "x".repeat(2000);
    byte[] json =
        ("{\"field1\":\"hi\",\"field2\":1,\"field3\":2,\"field9\":\"" + longText + "\"}")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);

    RpcxMessage reply =
        connection
            .call(RpcxMessage.request("Hello", "Say").serializeType(SerializeType.JSON).payload(json).build(), TIMEOUT)
            .get(10, TimeUnit.SECONDS);

    assertEquals(protocols.rpcx.codec.CompressType.GZIP, reply.compressType(), "rpcx gzips a reply over 1024 bytes to a gzipped request");
    com.fasterxml.jackson.databind.JsonNode body = new com.fasterxml.jackson.databind.ObjectMapper().readTree(reply.payload());
    assertEquals("OK", body.get("field1").asText());
    assertEquals(100, body.get("field2").asInt());
    assertEquals(longText, body.get("field9").asText());
  }

  @Test
  void theGoServerEchoesOurHeartbeat() throws Exception {
    Duration roundTrip = connectToGo().heartbeat(TIMEOUT).get(10, TimeUnit.SECONDS);
    assertTrue(roundTrip.compareTo(TIMEOUT) < 0);
  }

  @Test
  void rpcxSimulationRunsCleanAgainstTheGoServer() throws Exception {
    goServer = new GoPrograms.Server();

    GatlingRun run =
        GatlingRun.run(
            RpcxSimulation.class,
            Map.of("levels", "5,20", "ramp", "1", "hold", "2", "target", goServer.address.toString()));

    assertEquals(0, run.exitCode, run.toString());
    assertTrue(run.ok("Say") > 0, run.toString());
    assertEquals(0, run.ko("Say"), run.errors("Say"));
  }

  @Test
  void rpcxsOwnGoClientCallsTheJavaServer() throws Exception {
    try (RpcxBenchmarkServer javaServer = RpcxBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO)) {
      GoPrograms.ClientRun run =
          GoPrograms.client(
              new protocols.core.HostAndPort("127.0.0.1", javaServer.port()),
              Duration.ofSeconds(60),
              "-c", "4", "-n", "1000", "-check-errors");

      assertEquals(0, run.exitCode(), run.output());
      assertTrue(run.output().contains("calls: 1000 ok, 0 failed"), run.output());
      assertTrue(run.output().contains("heartbeat: ok"), run.output());
      assertTrue(run.output().contains("unknown method: error \"rpcx: can't find method Nope\""), run.output());
    }
  }

  @Test
  void rpcxsOwnGoClientMeasuresForADurationOnSharedConnectionsAfterAWarmUp(@TempDir Path dir) throws Exception {
    Path json = dir.resolve("go-client.json");
    try (RpcxBenchmarkServer javaServer = RpcxBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO)) {
      GoPrograms.ClientRun run =
          GoPrograms.client(
              new protocols.core.HostAndPort("127.0.0.1", javaServer.port()),
              Duration.ofSeconds(60),
              "-c", "8", "-connections", "2", "-warmup", "1s", "-d", "1s", "-json", json.toString());

      assertEquals(0, run.exitCode(), run.output());
      assertTrue(run.output().matches("(?s).*latency: p50 \\d+µs, p99 \\d+µs.*"), run.output());
      com.fasterxml.jackson.databind.JsonNode say = benchmark.matrix.GatlingResults.measuredIn(json);
      assertNotNull(say, "the record's form, request Say: " + run.output());
      assertTrue(say.get("ok").asLong() > 0 && say.get("ko").asLong() == 0, say.toString());
      assertTrue(say.get("p50").asLong() > 0 && say.get("p99").asLong() >= say.get("p50").asLong(), say.toString());
    }
  }
}
