package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.grpc.GrpcDsl.*;
import static protocols.grpc.GrpcStreamingTest.ask;
import static protocols.grpc.GrpcStreamingTest.item;
import static protocols.grpc.GrpcStreamingTest.runOnce;

import com.google.protobuf.ByteString;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.core.OpenStreams;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;
import streaming.pb.Ask;
import streaming.pb.Item;
import streaming.pb.StreamsGrpc;

/** Streams that go wrong: each is a KO with a readable message, and the run ends on schedule. */
class GrpcStreamFaultsTest {

  private static StreamingServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = StreamingServer.start();
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
  }

  @Test
  void aServerThatFailsTheStreamAfterSomeMessagesIsAKoSayingHowMany() {
    var items = grpc("items").serverStream(StreamsGrpc.getItemsMethod());

    GatlingRun run =
        runOnce(server.target(), exec(items.send(Ask.newBuilder().setCount(10).setFailAfter(3).build()), items.awaitStreamEnd()));

    assertEquals(3, run.ok("items"), run.toString());
    assertEquals(1, run.ko("items"), run.toString());
    assertTrue(run.errors("items").contains("INTERNAL: failed on purpose, after 3 messages received"), run.errors("items"));
  }

  @Test
  void aDeadlinePassingMidStreamIsAKoDeadlineExceeded() {
    var items = grpc("slow items").serverStream(StreamsGrpc.getItemsMethod()).deadline(Duration.ofMillis(350));

    GatlingRun run = runOnce(server.target(), exec(items.send(ask(20, 100)), items.awaitStreamEnd()));

    assertEquals(1, run.ko("slow items"), run.toString());
    assertTrue(run.errors("slow items").contains("DEADLINE_EXCEEDED"), run.errors("slow items"));
    assertTrue(run.ok("slow items") >= 1 && run.ok("slow items") <= 4, run.toString());
    assertTrue(run.request("slow items").get("max").asLong() < 1_000_000, "ended near the deadline: " + run);
  }

  @Test
  void aServerStreamClosedWithoutAMessageIsAKo() {
    var items = grpc("nothing").serverStream(StreamsGrpc.getItemsMethod());

    GatlingRun run = runOnce(server.target(), exec(items.send(ask(0, 0)), items.awaitStreamEnd()));

    assertEquals(1, run.ko("nothing"), run.toString());
    assertTrue(run.errors("nothing").contains("OK: the server closed the stream without a message, after 0 messages received"), run.errors("nothing"));
  }

  @Test
  void aSendAfterHalfCloseIsAKo() {
    var echo = grpc("echo").bidiStream(StreamsGrpc.getEchoMethod());

    GatlingRun run =
        runOnce(server.target(), exec(echo.start(), echo.send(item(1)), echo.halfClose(), echo.send(item(2)), echo.awaitStreamEnd()));

    assertEquals(1, run.ok("echo"), "the message sent before the half-close is echoed: " + run);
    assertEquals(1, run.ko("echo"), run.toString());
    assertTrue(run.errors("echo").contains("send after halfClose on stream 'echo'"), run.errors("echo"));
  }

  @Test
  void sendingOrAwaitingAStreamNeverStartedIsAKo() {
    var echo = grpc("never started").bidiStream(StreamsGrpc.getEchoMethod());

    GatlingRun run = runOnce(server.target(), exec(echo.send(item(1)), echo.awaitStreamEnd()));

    assertEquals(2, run.ko("never started"), run.toString());
    assertTrue(run.errors("never started").contains("send on stream 'never started', which was never started"), run.errors("never started"));
    assertTrue(run.errors("never started").contains("awaitStreamEnd on stream 'never started', which was never started"), run.errors("never started"));
  }

  @Test
  void streamsStillOpenWhenTheUserEndsAreCancelledAndNothingLeaks() throws Exception {
    var echo = grpc("left open").bidiStream(StreamsGrpc.getEchoMethod());
    var items = grpc("items left open").serverStream(StreamsGrpc.getItemsMethod());
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("leaves streams open")
                        .exec(echo.start(), echo.send(item(1)), items.send(ask(1000, 50)))
                        .pause(Duration.ofMillis(500))
                        .injectOpen(atOnceUsers(3)))
                .protocols(grpc.target(server.target())));

    GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

    assertEquals(3, run.ko("left open"), run.toString());
    assertTrue(run.errors("left open").contains("the virtual user ended with stream 'left open' still open: cancelled after"), run.errors("left open"));
    assertEquals(3, run.streams("items left open").get("cancelled").asInt(), run.toString());
    assertEquals(0, OpenStreams.count(), "streams open in the client after the run");
    long until = System.nanoTime() + 3_000_000_000L;
    while (server.open.get() > 0 && System.nanoTime() < until) {
      Thread.sleep(20);
    }
    assertEquals(0, server.open.get(), "streams the server still has open");
  }

  @Test
  void aSlowReaderHoldsTheSenderBackInsteadOfBufferingEverything() {
    var sum = grpc("slow sum").clientStream(StreamsGrpc.getSlowSumMethod());
    Item big = Item.newBuilder().setIndex(1).setPadding(ByteString.copyFrom(new byte[16 * 1024])).build();
    AtomicInteger sent = new AtomicInteger();
    AtomicInteger sentBeforeTheServerRead = new AtomicInteger();
    AtomicReference<String> reply = new AtomicReference<>();
    server.slowSumReceived.set(0);
    var checked = sum.check(protocols.core.check.RpcChecks.response(Item::getTag).saveAs("count"));

    GatlingRun run =
        runOnce(
            server.target(),
            exec(checked.start())
                .repeat(600)
                .on(
                    exec(checked.send(big))
                        .exec(
                            session -> {
                              int n = sent.incrementAndGet();
                              if (server.slowSumReceived.get() == 0) {
                                sentBeforeTheServerRead.set(n);
                              }
                              return session;
                            }))
                .exec(checked.halfClose(), checked.awaitStreamEnd())
                .exec(
                    session -> {
                      reply.set(session.getString("count"));
                      return session;
                    }));

    assertEquals(1, run.ok("slow sum"), run.toString());
    assertEquals("600", reply.get(), "the server got every message in the end");
    // 600 x 16 KiB = 9.4 MiB; HTTP/2's flow-control windows (1 MiB each for the stream and the server's
    // buffer) and grpc-java's 32 KiB send buffer let about 130 through (2 MiB), then the user waits
    assertTrue(
        sentBeforeTheServerRead.get() > 0 && sentBeforeTheServerRead.get() < 200,
        "messages the user sent while the server read none: " + sentBeforeTheServerRead.get());
  }

  @Test
  void aServerKilledMidStreamIsAKoAndStreamsAfterItsRestartSucceed() throws Exception {
    StreamingServer own = StreamingServer.start();
    int port = own.port();
    AtomicReference<StreamingServer> restarted = new AtomicReference<>();
    Thread killer =
        new Thread(
            () -> {
              try {
                long until = System.nanoTime() + 20_000_000_000L;
                while (own.open.get() == 0 && System.nanoTime() < until) {
                  Thread.sleep(10);
                }
                Thread.sleep(300);
                own.close();
                restarted.set(StreamingServer.startOn(port));
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    var before = grpc("before kill").serverStream(StreamsGrpc.getItemsMethod());
    var after = grpc("after restart").serverStream(StreamsGrpc.getItemsMethod());
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("killed").exec(before.send(ask(1000, 50)), before.awaitStreamEnd()).injectOpen(atOnceUsers(1)),
                    scenario("restarted")
                        .exec(after.send(ask(3, 5)), after.awaitStreamEnd())
                        .injectOpen(nothingFor(Duration.ofSeconds(3)), atOnceUsers(1)))
                .protocols(grpc.target(own.target())));
    killer.start();
    try {
      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      assertEquals(1, run.ko("before kill"), run.toString());
      assertTrue(run.ok("before kill") >= 1, run.toString());
      // grpc-java reports the server's shutdown as CANCELLED (RST_STREAM) or UNAVAILABLE, depending on timing
      assertTrue(run.errors("before kill").matches(".*(CANCELLED|UNAVAILABLE): .*, after \\d+ messages received.*"), run.errors("before kill"));
      assertEquals(3, run.ok("after restart"), run.toString());
      assertEquals(0, run.ko("after restart"), run.toString());
      assertTrue(run.wallTime.toSeconds() < 20, "the run ended on schedule: " + run.wallTime);
    } finally {
      killer.join(10_000);
      if (restarted.get() != null) {
        restarted.get().close();
      }
    }
  }
}
