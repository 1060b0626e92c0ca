package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import calculator.pb.CalculatorGrpc;
import calculator.pb.CounterGrpc;
import calculator.pb.Operands;
import calculator.pb.Result;
import io.gatling.javaapi.core.ChainBuilder;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;

/** The gRPC protocol against a real gRPC server of a service other than the benchmark's. */
class GrpcProtocolTest {

  private static CalculatorServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = CalculatorServer.plaintext();
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
  }

  private static Operands operands(long a, long b) {
    return Operands.newBuilder().setA(a).setB(b).build();
  }

  private static GatlingRun runOnce(GrpcProtocolBuilder protocol, ChainBuilder chain) {
    ProbeSimulation.define(
        sim -> sim.setUp(scenario("calculator").exec(chain).injectOpen(atOnceUsers(1))).protocols(protocol));
    return GatlingRun.run(ProbeSimulation.class, Map.of());
  }

  @Test
  void callsAnyGeneratedUnaryMethod() {
    GatlingRun run =
        runOnce(
            grpc.target(server.target()),
            exec(
                grpc("add")
                    .unary(CalculatorGrpc.getAddMethod())
                    .payload(operands(2, 3))
                    .check(response(Result::getValue).is(5L))));

    assertEquals(1, run.ok("add"), run.toString());
  }

  @Test
  void anErrorStatusIsAKoWithItsCodeAndDescription() {
    GatlingRun run =
        runOnce(
            grpc.target(server.target()),
            exec(grpc("divide").unary(CalculatorGrpc.getDivideMethod()).payload(operands(1, 0))));

    assertEquals(1, run.ko("divide"));
    assertTrue(run.errors("divide").contains("INVALID_ARGUMENT: division by zero"), run.errors("divide"));
  }

  @Test
  void aStatusCheckAcceptsAnExpectedErrorStatus() {
    GatlingRun run =
        runOnce(
            grpc.target(server.target()),
            exec(
                grpc("divide by zero")
                    .unary(CalculatorGrpc.getDivideMethod())
                    .payload(operands(1, 0))
                    .check(status().is("INVALID_ARGUMENT"))));

    assertEquals(1, run.ok("divide by zero"));
  }

  @Test
  void aCallPastItsDeadlineIsAKoDeadlineExceeded() {
    GatlingRun run =
        runOnce(
            grpc.target(server.target()),
            exec(
                grpc("slow")
                    .unary(CalculatorGrpc.getAddMethod())
                    .payload(Operands.newBuilder().setDelayMillis(2000).build())
                    .deadline(Duration.ofMillis(200))));

    assertEquals(1, run.ko("slow"));
    assertTrue(run.errors("slow").contains("DEADLINE_EXCEEDED"), run.errors("slow"));
    assertTrue(run.request("slow").get("max").asLong() < 1_000_000, "gave up near the deadline");
  }

  @Test
  void protocolMetadataIsSentWithEveryCall() {
    GatlingRun run =
        runOnce(
            grpc.target(server.target()).header("x-tenant", "acme"),
            exec(
                grpc("tenant")
                    .unary(CalculatorGrpc.getAddMethod())
                    .payload(operands(1, 1))
                    .check(response(Result::getTenant).is("acme"))));

    assertEquals(1, run.ok("tenant"), run.errors("tenant"));
  }

  @Test
  void requestMetadataResolvesGatlingExpressionLanguage() {
    GatlingRun run =
        runOnce(
            grpc.target(server.target()),
            exec(session -> session.set("tenant", "tenant-7"))
                .exec(
                    grpc("tenant from session")
                        .unary(CalculatorGrpc.getAddMethod())
                        .payload(operands(1, 1))
                        .header("x-tenant", "#{tenant}")
                        .check(response(Result::getTenant).is("tenant-7"))));

    assertEquals(1, run.ok("tenant from session"), run.errors("tenant from session"));
  }

  @Test
  void aReplyOverTheInboundSizeLimitIsAKo() {
    GatlingRun run =
        runOnce(
            grpc.target(server.target()).maxInboundMessageSize(1000),
            exec(
                grpc("too big")
                    .unary(CalculatorGrpc.getAddMethod())
                    .payload(Operands.newBuilder().setPadding(10_000).build())));

    assertEquals(1, run.ko("too big"));
    assertTrue(run.errors("too big").contains("RESOURCE_EXHAUSTED"), run.errors("too big"));
  }

  @Test
  void tlsWorksWithATrustedCaFile() throws Exception {
    try (CalculatorServer tlsServer = CalculatorServer.tls()) {
      GatlingRun run =
          runOnce(
              grpc.target(tlsServer.target()).tls(CalculatorServer.resource("tls/ca.pem").getPath()).overrideAuthority("localhost"),
              exec(grpc("over tls").unary(CalculatorGrpc.getAddMethod()).payload(operands(20, 22)).check(response(Result::getValue).is(42L))));

      assertEquals(1, run.ok("over tls"), run.errors("over tls"));
    }
  }

  @Test
  void plaintextAgainstATlsServerIsAKo() throws Exception {
    try (CalculatorServer tlsServer = CalculatorServer.tls()) {
      GatlingRun run =
          runOnce(
              grpc.target(tlsServer.target()).deadline(Duration.ofSeconds(2)),
              exec(grpc("plaintext").unary(CalculatorGrpc.getAddMethod()).payload(operands(1, 1))));

      assertEquals(1, run.ko("plaintext"));
    }
  }

  @Test
  void aServerThatIsNotListeningIsAKoSayingConnectionRefused() throws Exception {
    GatlingRun run =
        runOnce(
            grpc.target("127.0.0.1:" + closedPort()),
            exec(grpc("refused").unary(CalculatorGrpc.getAddMethod()).payload(operands(1, 1))));

    assertEquals(1, run.ko("refused"));
    assertTrue(run.errors("refused").contains("UNAVAILABLE"), run.errors("refused"));
    assertTrue(run.errors("refused").contains("Connection refused"), run.errors("refused"));
  }

  @Test
  void unaryRefusesAStreamingMethod() {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> grpc("count").unary(CounterGrpc.getCountMethod()));

    assertTrue(error.getMessage().contains("calculator.Counter/Count is a SERVER_STREAMING method"), error.getMessage());
  }

  @Test
  void aMalformedTargetIsRefusedNamingTheExpectedForm() {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> grpc.target("localhost"));

    assertEquals("grpc.target=localhost: expected host:port, for example localhost:50051", error.getMessage());
  }

  static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
