package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import benchmark.grpc.GrpcBenchmarkServer;
import benchmark.pb.BenchmarkProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.DynamicMessage;
import io.gatling.javaapi.core.ChainBuilder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;

/** Calls by method name, with JSON payloads and jsonPath checks, typed by reflection, a protoset or .proto files. */
class GrpcWithoutStubsTest {

  private static final String SAY_JSON = "{\"field1\":\"#{who}\",\"field2\":1,\"field3\":#{n}}";

  private static GrpcBenchmarkServer withReflection;
  private static GrpcBenchmarkServer withoutReflection;

  @TempDir static Path temp;

  @BeforeAll
  static void startServers() throws Exception {
    withReflection = GrpcBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO, true);
    withoutReflection = GrpcBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO, false);
  }

  @AfterAll
  static void stopServers() throws Exception {
    withReflection.close();
    withoutReflection.close();
  }

  private static String target(GrpcBenchmarkServer server) {
    return "127.0.0.1:" + server.port();
  }

  private static GatlingRun runOnce(GrpcProtocolBuilder protocol, ChainBuilder chain) {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("no stubs")
                        .exec(session -> session.set("who", "gatling").set("n", 7))
                        .exec(chain)
                        .injectOpen(atOnceUsers(1)))
                .protocols(protocol));
    return GatlingRun.run(ProbeSimulation.class, Map.of());
  }

  private static ChainBuilder say(String name) {
    return exec(
        grpc(name)
            .method("benchmark.Hello/Say")
            .json(SAY_JSON)
            .check(jsonPath("$.field1").is("OK"), jsonPath("$.field3").ofInt().is(7)));
  }

  @Test
  void aJsonPayloadWithoutElIsParsedOnceForEveryCall() throws Exception {
    // no EL: the payload ignores the session, and every call sends the one message parsed at the first
    var payload = GrpcMethodRequestBuilder.jsonPayload("{\"field1\":\"x\",\"field2\":2,\"field3\":3}", "test");
    var type = benchmark.pb.BenchmarkMessage.getDescriptor();
    var first = payload.apply(null).build(type);
    assertSame(first, payload.apply(null).build(type));
    assertEquals("x", first.getField(type.findFieldByName("field1")));
  }

  @Test
  void reflectionTypesACallByMethodNameWithJsonAndJsonPathChecks() {
    GatlingRun run = runOnce(grpc.target(target(withReflection)).reflection(), say("say"));

    assertEquals(1, run.ok("say"), run.errors("say"));
  }

  @Test
  void aDescriptorSetTypesTheCall() throws Exception {
    Path protoset = temp.resolve("benchmark.protoset");
    Files.write(
        protoset,
        FileDescriptorSet.newBuilder().addFile(BenchmarkProto.getDescriptor().toProto()).build().toByteArray());

    GatlingRun run =
        runOnce(grpc.target(target(withoutReflection)).descriptorSet(protoset.toString()), say("say"));

    assertEquals(1, run.ok("say"), run.errors("say"));
  }

  @Test
  void protoFilesAreCompiledAtRunTime() {
    GatlingRun run =
        runOnce(grpc.target(target(withoutReflection)).protoFiles("proto/benchmark.proto"), say("say"));

    assertEquals(1, run.ok("say"), run.errors("say"));
  }

  @Test
  void protoFilesAreFoundOnTheProtoPath() {
    GatlingRun run =
        runOnce(
            grpc.target(target(withoutReflection)).protoFiles("benchmark.proto").protoPath("proto"),
            say("say"));

    assertEquals(1, run.ok("say"), run.errors("say"));
  }

  @Test
  void aFunctionBuildsTheDynamicMessageAndResponseChecksTheReply() {
    GatlingRun run =
        runOnce(
            grpc.target(target(withReflection)).reflection(),
            exec(
                grpc("built")
                    .method("benchmark.Hello/Say")
                    .message(
                        (session, type) ->
                            DynamicMessage.newBuilder(type)
                                .setField(type.findFieldByName("field1"), session.getString("who"))
                                .setField(type.findFieldByName("field2"), 1)
                                .setField(type.findFieldByName("field3"), session.getInt("n"))
                                .build())
                    .check(
                        response(
                                (DynamicMessage reply) ->
                                    reply.getField(reply.getDescriptorForType().findFieldByName("field2")))
                            .is(100))));

    assertEquals(1, run.ok("built"), run.errors("built"));
  }

  @Test
  void anUnknownMethodIsAKoListingTheClosestMethods() {
    GatlingRun run =
        runOnce(
            grpc.target(target(withReflection)).reflection(),
            exec(grpc("typo").method("benchmark.Hello/Sya").json("{}")));

    assertEquals(1, run.ko("typo"));
    String errors = run.errors("typo");
    assertTrue(errors.contains("names no method of benchmark.Hello"), errors);
    assertTrue(errors.contains("closest: benchmark.Hello/Say"), errors);
  }

  @Test
  void anUnknownServiceIsAKoNamingIt() {
    GatlingRun run =
        runOnce(
            grpc.target(target(withReflection)).reflection(),
            exec(grpc("typo").method("benchmark.Helo/Say").json("{}")));

    assertEquals(1, run.ko("typo"));
    String errors = run.errors("typo");
    assertTrue(errors.contains("unknown service benchmark.Helo"), errors);
    assertTrue(errors.contains("benchmark.Hello/Say"), errors);
  }

  @Test
  void jsonOfTheWrongTypeIsAKoNamingTheFieldAndWhatItExpects() {
    GatlingRun run =
        runOnce(
            grpc.target(target(withReflection)).reflection(),
            exec(
                grpc("bad json")
                    .method("benchmark.Hello/Say")
                    .json("{\"field1\":\"x\",\"field2\":\"many\",\"field3\":1}")));

    assertEquals(1, run.ko("bad json"));
    String errors = run.errors("bad json");
    assertTrue(errors.contains("field \\\"field2\\\" expects a int32"), errors);
  }

  @Test
  void jsonWithAnUnknownFieldIsAKoListingTheFields() {
    GatlingRun run =
        runOnce(
            grpc.target(target(withReflection)).reflection(),
            exec(grpc("bad json").method("benchmark.Hello/Say").json("{\"feld1\":\"x\"}")));

    assertEquals(1, run.ko("bad json"));
    String errors = run.errors("bad json");
    assertTrue(errors.contains("no field \\\"feld1\\\""), errors);
    assertTrue(errors.contains("field1"), errors);
  }

  @Test
  void jsonWithoutARequiredFieldIsAKoNamingIt() {
    GatlingRun run =
        runOnce(
            grpc.target(target(withReflection)).reflection(),
            exec(grpc("bad json").method("benchmark.Hello/Say").json("{\"field1\":\"x\",\"field2\":1}")));

    assertEquals(1, run.ko("bad json"));
    assertTrue(run.errors("bad json").contains("missing required fields: field3"), run.errors("bad json"));
  }

  @Test
  void aServerWithoutReflectionIsAKoSayingSo() {
    GatlingRun run = runOnce(grpc.target(target(withoutReflection)).reflection(), say("say"));

    assertEquals(1, run.ko("say"));
    assertTrue(run.errors("say").contains("has no reflection service"), run.errors("say"));
  }

  @Test
  void aProtoFileThatDoesNotParseIsAKoNamingFileAndLine() throws Exception {
    Path broken = temp.resolve("broken.proto");
    Files.writeString(broken, "syntax = \"proto3\";\npackage x;\nmessage M { int32 a = ; }\n");

    GatlingRun run = runOnce(grpc.target(target(withoutReflection)).protoFiles(broken.toString()), say("say"));

    assertEquals(1, run.ko("say"));
    assertTrue(run.errors("say").contains("broken.proto:3:"), run.errors("say"));
  }
}
