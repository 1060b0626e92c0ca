package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;
import static protocols.grpc.GrpcStreamingTest.runOnce;

import io.grpc.examples.routeguide.Feature;
import io.grpc.examples.routeguide.Point;
import io.grpc.examples.routeguide.Rectangle;
import io.grpc.examples.routeguide.RouteGuideGrpc;
import io.grpc.examples.routeguide.RouteNote;
import io.grpc.examples.routeguide.RouteSummary;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.testkit.GatlingRun;

/** The three kinds of stream through Gatling against a gRPC server nobody here wrote: grpc-go's route_guide. */
class RouteGuideTest {

  private static RouteGuideServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = new RouteGuideServer();
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
  }

  private static Point point(int latitude, int longitude) {
    return Point.newBuilder().setLatitude(latitude).setLongitude(longitude).build();
  }

  // three features of route_guide's embedded data, all inside AROUND_MENDHAM
  private static final Point PATRIOTS_PATH = point(407838351, -746143763);
  private static final Point WHIPPANY = point(408122808, -743999179);
  private static final Point NEW_PROVIDENCE = point(407033786, -743977337);
  private static final Rectangle AROUND_MENDHAM =
      Rectangle.newBuilder().setLo(point(407000000, -747000000)).setHi(point(409000000, -743000000)).build();

  @Test
  void listFeaturesStreamsEveryFeatureInTheRectangle() {
    var features =
        grpc("ListFeatures")
            .serverStream(RouteGuideGrpc.getListFeaturesMethod())
            .check(
                responseThat(
                    "inside the rectangle",
                    (Feature f) ->
                        f.getLocation().getLatitude() >= 407000000
                            && f.getLocation().getLatitude() <= 409000000
                            && f.getLocation().getLongitude() >= -747000000
                            && f.getLocation().getLongitude() <= -743000000),
                response(Feature::getName)
                    .in(
                        "Patriots Path, Mendham, NJ 07945, USA",
                        "101 New Jersey 10, Whippany, NJ 07981, USA",
                        "26 East 3rd Street, New Providence, NJ 07974, USA"));

    GatlingRun run = runOnce(server.target, exec(features.send(AROUND_MENDHAM), features.awaitStreamEnd()));

    assertEquals(3, run.ok("ListFeatures"), run.toString());
    assertEquals(0, run.ko("ListFeatures"), run.toString());
  }

  @Test
  void recordRouteSummarisesThePointsSent() {
    var route =
        grpc("RecordRoute")
            .clientStream(RouteGuideGrpc.getRecordRouteMethod())
            .check(
                response(RouteSummary::getPointCount).is(3),
                response(RouteSummary::getFeatureCount).is(3),
                responseThat("a distance of some kilometres", (RouteSummary s) -> s.getDistance() > 1000 && s.getDistance() < 100_000));

    GatlingRun run =
        runOnce(
            server.target,
            exec(route.start(), route.send(PATRIOTS_PATH), route.send(WHIPPANY), route.send(NEW_PROVIDENCE), route.halfClose(), route.awaitStreamEnd()));

    assertEquals(1, run.ok("RecordRoute"), run.toString());
  }

  @Test
  void routeChatAnswersEachNoteWithTheNotesAtItsLocation() {
    // the server keeps notes for its lifetime: a location of this run only
    int latitude = ThreadLocalRandom.current().nextInt(1, 80_000_000);
    Point here = point(latitude, 1);
    Point there = point(latitude, 2);
    RouteNote first = RouteNote.newBuilder().setLocation(here).setMessage("first").build();
    RouteNote second = RouteNote.newBuilder().setLocation(there).setMessage("second").build();
    RouteNote third = RouteNote.newBuilder().setLocation(here).setMessage("third").build();
    var chat =
        grpc("RouteChat")
            .bidiStream(RouteGuideGrpc.getRouteChatMethod())
            .check(response(RouteNote::getMessage).in("first", "second", "third"))
            .check(responseThat("a note of this run", (RouteNote n) -> n.getLocation().getLatitude() == latitude));

    GatlingRun run =
        runOnce(server.target, exec(chat.start(), chat.send(first), chat.send(second), chat.send(third), chat.halfClose(), chat.awaitStreamEnd()));

    // first -> [first]; second -> [second]; third -> [first, third]
    assertEquals(4, run.ok("RouteChat"), run.toString());
    assertEquals(0, run.ko("RouteChat"), run.toString());
  }
}
