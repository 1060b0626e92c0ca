package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import com.fasterxml.jackson.databind.JsonNode;
import io.gatling.javaapi.core.ChainBuilder;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.core.MessageResponseTimePolicy;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;
import streaming.pb.Ask;
import streaming.pb.Item;
import streaming.pb.StreamsGrpc;

/** Server, client and bidirectional streams through Gatling against a real grpc-java server. */
class GrpcStreamingTest {

  private static StreamingServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = StreamingServer.start();
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
  }

  static GatlingRun runOnce(String target, ChainBuilder chain) {
    ProbeSimulation.define(
        sim -> sim.setUp(scenario("streams").exec(chain).injectOpen(atOnceUsers(1))).protocols(grpc.target(target)));
    return GatlingRun.run(ProbeSimulation.class, Map.of());
  }

  static Ask ask(int count, long intervalMillis) {
    return Ask.newBuilder().setCount(count).setIntervalMillis(intervalMillis).build();
  }

  static Item item(int index) {
    return Item.newBuilder().setIndex(index).build();
  }

  static JsonNode streams(GatlingRun run, String name) {
    return run.streams(name);
  }

  @Test
  void everyMessageOfAServerStreamIsOneResponse() {
    var items = grpc("items").serverStream(StreamsGrpc.getItemsMethod()).check(responseThat("index below 5", (Item i) -> i.getIndex() < 5));

    GatlingRun run = runOnce(server.target(), exec(items.send(ask(5, 10)), items.awaitStreamEnd()));

    assertEquals(5, run.ok("items"), run.toString());
    assertEquals(0, run.ko("items"), run.toString());
    JsonNode stats = streams(run, "items");
    assertEquals(1, stats.get("opened").asInt(), stats.toString());
    assertEquals(1, stats.get("completed").asInt(), stats.toString());
    assertEquals(1, stats.get("messagesSent").asInt(), stats.toString());
    assertEquals(5, stats.get("messagesReceived").asInt(), stats.toString());
    assertEquals(1, stats.get("duration").get("count").asInt(), stats.toString());
  }

  @Test
  void aClientStreamSendsManyMessagesAndChecksItsOneReply() {
    var sum = grpc("sum").clientStream(StreamsGrpc.getSumMethod()).check(response(Item::getIndex).is(1 + 2 + 3 + 4));

    GatlingRun run =
        runOnce(
            server.target(),
            exec(sum.start())
                .repeat(4, "i")
                .on(exec(sum.send(session -> item(session.getInt("i") + 1))))
                .exec(sum.halfClose(), sum.awaitStreamEnd()));

    assertEquals(1, run.ok("sum"), run.toString());
    assertEquals(4, streams(run, "sum").get("messagesSent").asInt());
  }

  @Test
  void aBidiStreamHandlesRepliesWhileTheUserGoesOn() {
    var echo = grpc("echo").bidiStream(StreamsGrpc.getEchoMethod()).check(responseThat("index below 3", (Item i) -> i.getIndex() < 3));

    GatlingRun run =
        runOnce(
            server.target(),
            exec(echo.start(), echo.send(item(0)), echo.send(item(1)), echo.send(item(2)))
                .pause(java.time.Duration.ofSeconds(1))
                .exec(echo.halfClose(), echo.awaitStreamEnd()));

    assertEquals(3, run.ok("echo"), run.toString());
    // timed from the stream's start: had the echoes waited for the user, they would take the pause's second
    assertTrue(run.request("echo").get("max").asLong() < 900_000, "echoes handled as they came: " + run);
  }

  @Test
  void oneUserHoldsTwoStreamsUnderTwoNames() {
    var first = grpc("echo").bidiStream(StreamsGrpc.getEchoMethod()).streamName("first");
    var second = grpc("echo").bidiStream(StreamsGrpc.getEchoMethod()).streamName("second");

    GatlingRun run =
        runOnce(
            server.target(),
            exec(
                first.start(),
                second.start(),
                first.send(item(1)),
                second.send(item(2)),
                second.send(item(3)),
                first.halfClose(),
                second.halfClose(),
                first.awaitStreamEnd(),
                second.awaitStreamEnd()));

    assertEquals(3, run.ok("echo"), run.toString());
    assertEquals(2, streams(run, "echo").get("completed").asInt());
  }

  @Test
  void aFailedMessageCheckIsAKoForThatMessageOnly() {
    var items = grpc("items").serverStream(StreamsGrpc.getItemsMethod()).check(response(Item::getIndex).not(2));

    GatlingRun run = runOnce(server.target(), exec(items.send(ask(4, 5)), items.awaitStreamEnd()));

    assertEquals(3, run.ok("items"), run.toString());
    assertEquals(1, run.ko("items"), run.toString());
    assertEquals(1, streams(run, "items").get("failed").asInt());
  }

  @Test
  void aStatusCheckDecidesWhatTheCloseMeans() {
    var items =
        grpc("expected failure")
            .serverStream(StreamsGrpc.getItemsMethod())
            .check(status().is("INTERNAL"));

    GatlingRun run =
        runOnce(
            server.target(),
            exec(items.send(Ask.newBuilder().setCount(5).setFailAfter(2).build()), items.awaitStreamEnd()));

    assertEquals(0, run.ko("expected failure"), run.toString());
    assertEquals(3, run.ok("expected failure"), "two messages and the expected close: " + run);
  }

  @Test
  void theTimePolicyChoosesWhereEachMessageIsTimedFrom() {
    var fromStart = grpc("from start").serverStream(StreamsGrpc.getItemsMethod());
    var fromLast =
        grpc("from last")
            .serverStream(StreamsGrpc.getItemsMethod())
            .messageResponseTimePolicy(MessageResponseTimePolicy.FromLastMessageReceived);

    GatlingRun run =
        runOnce(
            server.target(),
            exec(fromStart.send(ask(5, 100)), fromLast.send(ask(5, 100)), fromStart.awaitStreamEnd(), fromLast.awaitStreamEnd()));

    assertTrue(run.request("from start").get("max").asLong() >= 450_000, run.toString());
    assertTrue(run.request("from last").get("max").asLong() < 350_000, run.toString());
  }

  @Test
  void headersAreResolvedWithGatlingElWhenTheStreamOpens() {
    var items =
        grpc("tenant items")
            .serverStream(StreamsGrpc.getItemsMethod())
            .header("x-tenant", "#{tenant}")
            .check(response(Item::getTag).is("tenant-3"));

    GatlingRun run =
        runOnce(
            server.target(),
            exec(session -> session.set("tenant", "tenant-3"))
                .exec(items.send(Ask.newBuilder().setCount(2).setTag("tenant").build()), items.awaitStreamEnd()));

    assertEquals(2, run.ok("tenant items"), run.toString());
  }

  @Test
  void valuesSavedByMessageChecksReachTheSessionAtTheStreamEnd() {
    var items = grpc("items").serverStream(StreamsGrpc.getItemsMethod()).check(response(Item::getIndex).saveAs("last"));
    AtomicReference<Object> saved = new AtomicReference<>();

    runOnce(
        server.target(),
        exec(items.send(ask(3, 5)), items.awaitStreamEnd())
            .exec(
                session -> {
                  saved.set(session.get("last"));
                  return session;
                }));

    assertEquals(2, saved.get());
  }

  @Test
  void theStreamVerbsTheKindHasNotAreRefusedWhenTheScenarioIsBuilt() {
    var items = grpc("items").serverStream(StreamsGrpc.getItemsMethod());

    IllegalStateException error = assertThrows(IllegalStateException.class, items::start);

    assertEquals("serverStream \"items\": no start() on a serverStream: a server stream is opened by send(request)", error.getMessage());
  }

  @Test
  void aStreamBuilderRefusesAMethodOfAnotherKind() {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> grpc("sum").bidiStream(StreamsGrpc.getSumMethod()));

    assertTrue(error.getMessage().contains("streaming.Streams/Sum is a CLIENT_STREAMING method"), error.getMessage());
    assertTrue(error.getMessage().contains("use clientStream(...)"), error.getMessage());
  }
}
