package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import com.google.protobuf.DynamicMessage;
import io.gatling.javaapi.core.ChainBuilder;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;

/**
 * The three kinds of stream by method name against grpc-go's route_guide server, typed by its
 * {@code .proto} compiled at run time: JSON messages out, jsonPath checks on every message in, and no
 * Java code of route_guide in the scenario.
 */
class GrpcStreamsWithoutStubsTest {

  private static final String AROUND_MENDHAM =
      "{\"lo\":{\"latitude\":407000000,\"longitude\":-747000000},\"hi\":{\"latitude\":409000000,\"longitude\":-743000000}}";

  private static RouteGuideServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = new RouteGuideServer();
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
  }

  private static GatlingRun runOnce(ChainBuilder chain) {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("streams without stubs")
                        .exec(session -> session.set("latitude", 407838351))
                        .exec(chain)
                        .injectOpen(atOnceUsers(1)))
                .protocols(grpc.target(server.target).protoFiles("src/test/proto/route_guide.proto")));
    return GatlingRun.run(ProbeSimulation.class, Map.of());
  }

  @Test
  void aServerStreamByNameChecksEveryMessageWithJsonPath() {
    var features =
        grpc("ListFeatures")
            .serverStream("routeguide.RouteGuide/ListFeatures")
            .check(
                jsonPath("$.location.latitude").ofLong().gte(407000000L),
                jsonPath("$.name")
                    .in(
                        "Patriots Path, Mendham, NJ 07945, USA",
                        "101 New Jersey 10, Whippany, NJ 07981, USA",
                        "26 East 3rd Street, New Providence, NJ 07974, USA"));

    GatlingRun run = runOnce(exec(features.send(AROUND_MENDHAM), features.awaitStreamEnd()));

    assertEquals(3, run.ok("ListFeatures"), run.errors("ListFeatures"));
    assertEquals(0, run.ko("ListFeatures"), run.errors("ListFeatures"));
  }

  @Test
  void aClientStreamByNameSendsJsonWithGatlingEl() {
    var route =
        grpc("RecordRoute")
            .clientStream("routeguide.RouteGuide/RecordRoute")
            .check(jsonPath("$.pointCount").ofInt().is(3), jsonPath("$.featureCount").ofInt().is(3));

    GatlingRun run =
        runOnce(
            exec(
                route.start(),
                route.send("{\"latitude\":#{latitude},\"longitude\":-746143763}"),
                route.send("{\"latitude\":408122808,\"longitude\":-743999179}"),
                route.send("{\"latitude\":407033786,\"longitude\":-743977337}"),
                route.halfClose(),
                route.awaitStreamEnd()));

    assertEquals(1, run.ok("RecordRoute"), run.errors("RecordRoute"));
  }

  @Test
  void aBidiStreamByNameSendsDynamicMessagesAndChecksTheReplies() {
    // the server keeps notes for its lifetime: a location of this run only
    int latitude = ThreadLocalRandom.current().nextInt(1, 80_000_000);
    var chat =
        grpc("RouteChat")
            .bidiStream("routeguide.RouteGuide/RouteChat")
            .check(
                jsonPath("$.location.latitude").ofInt().is(latitude),
                response((DynamicMessage note) -> note.getField(note.getDescriptorForType().findFieldByName("message")))
                    .in("first", "second"));
    String note = "{\"location\":{\"latitude\":" + latitude + ",\"longitude\":1},\"message\":\"%s\"}";

    GatlingRun run =
        runOnce(
            exec(
                chat.start(),
                chat.send(note.formatted("first")),
                chat.send(
                    (session, type) -> {
                      var location = type.findFieldByName("location");
                      var point = location.getMessageType();
                      return DynamicMessage.newBuilder(type)
                          .setField(
                              location,
                              DynamicMessage.newBuilder(point)
                                  .setField(point.findFieldByName("latitude"), latitude)
                                  .setField(point.findFieldByName("longitude"), 1)
                                  .build())
                          .setField(type.findFieldByName("message"), "second")
                          .build();
                    }),
                chat.halfClose(),
                chat.awaitStreamEnd()));

    // first -> [first]; second -> [first, second]: the notes at that location so far
    assertEquals(3, run.ok("RouteChat"), run.errors("RouteChat"));
    assertEquals(0, run.ko("RouteChat"), run.errors("RouteChat"));
  }

  @Test
  void aStreamVerbOnAnotherKindOfMethodIsAKoNamingTheVerbToUse() {
    var wrong = grpc("wrong kind").serverStream("routeguide.RouteGuide/RouteChat");

    // the stream never opens: send is the one KO
    GatlingRun run = runOnce(exec(wrong.send("{}")));

    assertEquals(1, run.ko("wrong kind"), run.toString());
    String errors = run.errors("wrong kind");
    assertTrue(errors.contains("is a bidiStream method; serverStream(...) takes serverStream methods"), errors);
    assertTrue(errors.contains("use bidiStream(\\\"routeguide.RouteGuide/RouteChat\\\")"), errors);
  }

  @Test
  void aUnaryCallOfAStreamingMethodIsAKoAndAStreamOfAUnaryMethodToo() {
    var stream = grpc("stream of unary").serverStream("routeguide.RouteGuide/GetFeature");

    GatlingRun run =
        runOnce(
            exec(
                grpc("unary of stream").method("routeguide.RouteGuide/ListFeatures").json(AROUND_MENDHAM),
                stream.send("{}")));

    String unary = run.errors("unary of stream");
    assertTrue(unary.contains("is a serverStream method; method(...) takes unary methods (use serverStream("), unary);
    String streamed = run.errors("stream of unary");
    assertTrue(streamed.contains("is a unary method; serverStream(...) takes serverStream methods (use method("), streamed);
  }

  @Test
  void aMessageThatDoesNotFitTheInputTypeEndsTheStreamWithAKoNamingTheField() {
    var features = grpc("bad message").serverStream("routeguide.RouteGuide/ListFeatures");

    GatlingRun run = runOnce(exec(features.send("{\"lo\":\"north\"}"), features.awaitStreamEnd()));

    assertEquals(1, run.ko("bad message"), run.toString());
    String errors = run.errors("bad message");
    assertTrue(errors.contains("does not fit routeguide.Rectangle: field \\\"lo\\\" expects a routeguide.Point object"), errors);
  }
}
