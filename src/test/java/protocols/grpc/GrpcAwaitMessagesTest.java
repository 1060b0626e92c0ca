package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.grpc.GrpcDsl.*;
import static protocols.grpc.GrpcStreamingTest.ask;
import static protocols.grpc.GrpcStreamingTest.item;
import static protocols.grpc.GrpcStreamingTest.runOnce;

import io.gatling.javaapi.core.ChainBuilder;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.core.MessageResponseTimePolicy;
import protocols.testkit.GatlingRun;
import streaming.pb.Item;
import streaming.pb.StreamsGrpc;

/**
 * awaitMessages, alone or after a send in the same action ({@code send(ping).awaitMessages(1)}): the virtual user waits for a
 * stream's next messages (a ping-pong), against a real grpc-java server.
 */
class GrpcAwaitMessagesTest {

  private static StreamingServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = StreamingServer.start();
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
  }

  /** A step that adds the time (ms) when the user passes it to {@code times}. */
  private static ChainBuilder noteTheTime(List<Long> times) {
    return exec(session -> {
      times.add(System.nanoTime() / 1_000_000);
      return session;
    });
  }

  /** A user opens the echo stream, runs {@code ping} five times (index "i"), half-closes and waits for the end. */
  private static GatlingRun fivePings(java.util.function.Function<GrpcStreamBuilder<Item, Item>, ChainBuilder> ping) {
    var echo = pingPong();
    return runOnce(
        server.target(), exec(echo.start()).repeat(5, "i").on(ping.apply(echo)).exec(echo.halfClose(), echo.awaitStreamEnd()));
  }

  /** The echo stream, each echo timed from the message it answers. */
  private static GrpcStreamBuilder<Item, Item> pingPong() {
    return grpc("echo")
        .bidiStream(StreamsGrpc.getEchoMethod())
        .messageResponseTimePolicy(MessageResponseTimePolicy.FromLastMessageSent);
  }

  @Test
  void theUserGoesOnOnlyOnceThatManyMessagesHaveArrived() {
    var items = grpc("items").serverStream(StreamsGrpc.getItemsMethod());
    List<Long> times = new CopyOnWriteArrayList<>();
    ChainBuilder now = noteTheTime(times);

    GatlingRun run =
        runOnce(
            server.target(),
            exec(now, exec(items.send(ask(3, 300)), items.awaitMessages(2)), now, exec(items.awaitStreamEnd()), now));

    assertEquals(3, run.ok("items"), run.toString());
    assertEquals(3, times.size(), run.toString());
    long awaited = times.get(1) - times.get(0);
    long rest = times.get(2) - times.get(1);
    assertTrue(awaited >= 580, "two items 300 ms apart came before the user went on: waited " + awaited + " ms");
    assertTrue(rest >= 150, "the third item, 300 ms later, had not: the stream ended " + rest + " ms after");
  }

  @Test
  void sendThenAwaitOneIsAPingPong() {
    GatlingRun run = fivePings(echo -> exec(echo.send(session -> item(session.getInt("i"))), echo.awaitMessages(1)));

    assertEquals(5, run.ok("echo"), run.toString());
    assertEquals(0, run.ko("echo"), run.toString());
    assertEquals(5, run.streams("echo").get("messagesSent").asInt());
  }

  @Test
  void sendThenAwaitInOneActionIsAPingPongCountingEveryEcho() {
    GatlingRun run = fivePings(echo -> exec(echo.send(session -> item(session.getInt("i"))).awaitMessages(1)));

    assertEquals(5, run.ok("echo"), run.toString());
    assertEquals(0, run.ko("echo"), run.toString());
    assertEquals(5, run.streams("echo").get("messagesSent").asInt(), run.toString());
    assertEquals(5, run.streams("echo").get("messagesReceived").asInt(), run.toString());
  }

  @Test
  void sendThenAwaitGoesOnOnlyOnceThatManyMessagesHaveArrived() {
    var items = grpc("items").serverStream(StreamsGrpc.getItemsMethod());
    List<Long> times = new CopyOnWriteArrayList<>();
    ChainBuilder now = noteTheTime(times);

    GatlingRun run = runOnce(server.target(), exec(now, items.send(ask(2, 300)).awaitMessages(2), now, items.awaitStreamEnd()));

    assertEquals(2, run.ok("items"), run.toString());
    assertEquals(2, times.size(), run.toString());
    long waited = times.get(1) - times.get(0);
    assertTrue(waited >= 580, "two items 300 ms apart came before the user went on: waited " + waited + " ms");
  }

  @Test
  void sendThenAwaitTimesOutAsAKoSayingHowManyArrived() {
    var echo = grpc("echo once").bidiStream(StreamsGrpc.getEchoMethod());

    GatlingRun run =
        runOnce(
            server.target(),
            exec(echo.start(), echo.send(item(1)).awaitMessages(2, Duration.ofMillis(300)), echo.halfClose(), echo.awaitStreamEnd()));

    assertTrue(
        run.errors("echo once").contains("awaitMessages(2) on stream 'echo once' timed out after 300 ms: 1 of 2 arrived"),
        run.errors("echo once"));
    assertEquals(1, run.ok("echo once"), "the one echo still came and was checked: " + run);
  }

  @Test
  void aTimeoutIsAKoSayingHowManyArrivedAndTheStreamStaysOpen() {
    var items = grpc("slow").serverStream(StreamsGrpc.getItemsMethod());

    GatlingRun run =
        runOnce(
            server.target(),
            exec(items.send(ask(2, 700)), items.awaitMessages(2, Duration.ofMillis(300)), items.awaitStreamEnd()));

    assertTrue(
        run.errors("slow").contains("awaitMessages(2) on stream 'slow' timed out after 300 ms: 0 of 2 arrived"), run.errors("slow"));
    assertEquals(2, run.ok("slow"), "both items still came and were checked: " + run);
  }

  @Test
  void aStreamThatEndsFirstIsAKoSayingHowManyArrived() {
    var items = grpc("short").serverStream(StreamsGrpc.getItemsMethod());

    GatlingRun run = runOnce(server.target(), exec(items.send(ask(2, 0)), items.awaitMessages(3), items.awaitStreamEnd()));

    assertTrue(
        run.errors("short").contains("stream 'short' ended (OK) before awaitMessages(3) was met: 2 of 3 arrived"), run.errors("short"));
  }

  @Test
  void awaitMessagesOnAStreamNeverStartedIsRefused() {
    var echo = grpc("never started").bidiStream(StreamsGrpc.getEchoMethod());

    GatlingRun run = runOnce(server.target(), exec(echo.awaitMessages(1)));

    assertTrue(
        run.errors("never started").contains("awaitMessages on stream 'never started', which was never started"),
        run.errors("never started"));
  }

  @Test
  void aCountBelowOneIsRefusedWhenTheScenarioIsBuilt() {
    var echo = grpc("echo").bidiStream(StreamsGrpc.getEchoMethod());

    IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> echo.awaitMessages(0));
    assertEquals("bidiStream \"echo\": awaitMessages needs a count of 1 or more, got 0", error.getMessage());
    IllegalArgumentException afterSend = assertThrows(IllegalArgumentException.class, () -> echo.send(item(1)).awaitMessages(0));
    assertEquals(error.getMessage(), afterSend.getMessage());
  }
}
