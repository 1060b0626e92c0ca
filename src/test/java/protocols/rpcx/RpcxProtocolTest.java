package protocols.rpcx;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.rpcx.RpcxDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import benchmark.rpcx.RpcxBenchmarkServer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import protocols.rpcx.codec.SerializeType;
import protocols.rpcx.server.RpcxServer;
import protocols.testkit.GatlingRun;
import simulations.RpcxSimulation;

/** The rpcx protocol through the real Gatling engine: the benchmark, any service, and every fault as a KO. */
class RpcxProtocolTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static GatlingRun run() {
    return GatlingRun.run(RpcxTestSimulation.class, Map.of());
  }

  private static io.gatling.javaapi.core.ChainBuilder say(String name, Duration timeout) {
    return exec(
        rpcx(name)
            .call("Hello", "Say")
            .protobuf(BenchmarkMessage.parser())
            .payload(BenchmarkMessages.request())
            .timeout(timeout)
            .check(response(BenchmarkMessage::getField1).is("OK")));
  }

  @Test
  void rpcxSimulationRunsCleanOnTheEmbeddedJavaServer() {
    GatlingRun run = GatlingRun.run(RpcxSimulation.class, Map.of("levels", "5,20", "ramp", "1", "hold", "3"));

    assertEquals(0, run.exitCode, run.toString());
    assertTrue(run.ok("Say") > 0, run.toString());
    assertEquals(0, run.ko("Say"), run.errors("Say"));
  }

  @Test
  void anUnknownMethodIsAKoWithTheServersMessage() throws Exception {
    try (RpcxBenchmarkServer server = RpcxBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO)) {
      RpcxTestSimulation.define(
          sim ->
              sim.setUp(
                      scenario("nope")
                          .exec(
                              rpcx("nope")
                                  .call("Hello", "Nope")
                                  .protobuf(BenchmarkMessage.parser())
                                  .payload(BenchmarkMessages.request()))
                          .injectOpen(atOnceUsers(3)))
                  .protocols(rpcx.target("127.0.0.1:" + server.port())));

      GatlingRun run = run();

      assertEquals(3, run.ko("nope"));
      assertTrue(run.errors("nope").contains("rpcx: can't find method Nope"), run.errors("nope"));
    }
  }

  @Test
  void aSlowServerIsATimeoutKoWithItsMessage() throws Exception {
    try (RpcxBenchmarkServer server = RpcxBenchmarkServer.start("127.0.0.1", 0, Duration.ofMillis(800))) {
      RpcxTestSimulation.define(
          sim ->
              sim.setUp(scenario("slow").exec(say("slow", Duration.ofMillis(100))).injectOpen(atOnceUsers(2)))
                  .protocols(rpcx.target("127.0.0.1:" + server.port())));

      GatlingRun run = run();

      assertEquals(2, run.ko("slow"));
      assertTrue(
          run.errors("slow").contains("no reply from 127.0.0.1:" + server.port() + " within 100 ms"), run.errors("slow"));
    }
  }

  @Test
  void aMalformedReplyIsAKoAndTheRunEndsOnSchedule() throws Exception {
    try (RawServer garbage =
        new RawServer(
            s -> {
              RawServer.readFrame(s);
              s.getOutputStream().write(new byte[] {8, 0, (byte) 0x80, (byte) 0x90, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
              s.getInputStream().read();
            })) {
      RpcxTestSimulation.define(
          sim ->
              sim.setUp(
                      scenario("garbage")
                          .repeat(3)
                          .on(say("garbage", Duration.ofSeconds(5)))
                          .injectOpen(atOnceUsers(4)))
                  .protocols(rpcx.target(garbage.address()).sharedConnections(2)));

      GatlingRun run = run();

      assertEquals(12, run.ko("garbage"));
      assertTrue(
          run.errors("garbage").contains("malformed frame from the server: unknown serialize type 9"),
          run.errors("garbage"));
      assertTrue(run.wallTime.compareTo(Duration.ofSeconds(30)) < 0, "nothing waits for its 5 s timeout: " + run.wallTime);
    }
  }

  @Test
  void whenTheServerGoesAwayCallsAreKoAndRecoverWhenItReturns() throws Exception {
    AtomicLong answeredAfterRestart = new AtomicLong();
    RpcxServer first = RpcxServer.builder().register("Hello", "Say", request -> reply(request, null)).start("127.0.0.1", 0);
    int port = first.port();
    RpcxServer[] second = new RpcxServer[1];
    Thread outage =
        new Thread(
            () -> {
              try {
                Thread.sleep(1500);
                first.close();
                Thread.sleep(1500);
                second[0] =
                    RpcxServer.builder().register("Hello", "Say", request -> reply(request, answeredAfterRestart)).start("127.0.0.1", port);
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
    RpcxTestSimulation.define(
        sim ->
            sim.setUp(
                    scenario("outage")
                        .during(Duration.ofSeconds(6))
                        .on(say("outage", Duration.ofSeconds(1)).pause(Duration.ofMillis(20)))
                        .injectOpen(atOnceUsers(5)))
                .protocols(rpcx.target("127.0.0.1:" + port).sharedConnections(2)));
    outage.start();
    try {
      GatlingRun run = run();

      assertTrue(run.ko("outage") > 0, run.toString());
      assertTrue(
          run.errors("outage").contains("connection to 127.0.0.1:" + port + " refused")
              || run.errors("outage").contains("closed by the server"),
          run.errors("outage"));
      assertTrue(answeredAfterRestart.get() > 0, "calls reached the restarted server: " + run);
      assertTrue(run.ok("outage") > answeredAfterRestart.get(), "calls succeeded before and after the outage");
    } finally {
      outage.join();
      if (second[0] != null) {
        second[0].close();
      }
    }
  }

  private static CompletableFuture<byte[]> reply(protocols.rpcx.codec.RpcxMessage request, AtomicLong counter)
      throws Exception {
    if (counter != null) {
      counter.incrementAndGet();
    }
    return CompletableFuture.completedFuture(
        BenchmarkMessages.reply(BenchmarkMessage.parseFrom(request.payloadBuffer())).toByteArray());
  }

  @Test
  void anyServiceAndMethodWithJsonBytesAndPerCallMetadata() throws Exception {
    RpcxServer server =
        RpcxServer.builder()
            .register(
                "Arith",
                "Mul",
                request -> {
                  JsonNode args = JSON.readTree(request.payload());
                  int product = args.get("A").asInt() * args.get("B").asInt();
                  return CompletableFuture.completedFuture(JSON.writeValueAsBytes(Map.of("C", product)));
                })
            .register(
                "Echo",
                "Upper",
                request ->
                    CompletableFuture.completedFuture(
                        (new String(request.payload(), StandardCharsets.UTF_8).toUpperCase() + " " + request.metadata().get("user"))
                            .getBytes(StandardCharsets.UTF_8)))
            .start("127.0.0.1", 0);
    try {
      RpcxTestSimulation.define(
          sim ->
              sim.setUp(
                      scenario("any")
                          .exec(session -> session.set("user", "user-" + session.userId()))
                          .exec(
                              rpcx("json mul")
                                  .call("Arith", "Mul")
                                  .json(JsonNode.class)
                                  .payload(Map.of("A", 6, "B", 7))
                                  .check(response((JsonNode reply) -> reply.get("C").asInt()).is(42)),
                              rpcx("bytes upper")
                                  .call("Echo", "Upper")
                                  .bytes()
                                  .payload("hello".getBytes(StandardCharsets.UTF_8))
                                  .metadata("user", "#{user}")
                                  .check(
                                      response((byte[] reply) -> new String(reply, StandardCharsets.UTF_8))
                                          .transform(text -> text.startsWith("HELLO user-"))
                                          .is(true)),
                              rpcx("reply mul")
                                  .call("Arith", "Mul")
                                  .payload(session -> Map.of("A", 2, "B", 21))
                                  .check(response((RpcxReply reply) -> reply.json().get("C").asInt()).is(42)))
                          .injectOpen(atOnceUsers(3)))
                  .protocols(rpcx.target("127.0.0.1:" + server.port()).serializeType(SerializeType.JSON))
                  .assertions(global().failedRequests().count().is(0L)));

      GatlingRun run = run();

      assertEquals(0, run.exitCode, run.toString());
      assertEquals(3, run.ok("json mul"));
      assertEquals(3, run.ok("bytes upper"));
      assertEquals(3, run.ok("reply mul"));
    } finally {
      server.close();
    }
  }
}
