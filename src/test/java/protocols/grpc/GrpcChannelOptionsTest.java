package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import calculator.pb.CalculatorGrpc;
import calculator.pb.Operands;
import calculator.pb.Result;
import io.gatling.javaapi.core.ChainBuilder;
import java.io.File;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;

/** The channel options of production clients, each against real grpc-java servers. */
class GrpcChannelOptionsTest {

  @TempDir static Path certificates;

  private static GatlingRun run(GrpcProtocolBuilder protocol, ChainBuilder chain, int users) {
    ProbeSimulation.define(
        sim -> sim.setUp(scenario("options").exec(chain).injectOpen(atOnceUsers(users))).protocols(protocol));
    return GatlingRun.run(ProbeSimulation.class, Map.of());
  }

  private static ChainBuilder add() {
    return exec(
        grpc("add")
            .unary(CalculatorGrpc.getAddMethod())
            .payload(Operands.newBuilder().setA(2).setB(3).build())
            .check(response(Result::getValue).is(5L)));
  }

  @Test
  void roundRobinOverTwoServersSendsCallsToBoth() throws Exception {
    try (CalculatorServer one = CalculatorServer.plaintext();
        CalculatorServer two = CalculatorServer.plaintext()) {
      GatlingRun result =
          run(
              grpc.targets("round_robin", one.target(), two.target()),
              repeat(10).on(add()),
              1);

      assertEquals(10, result.ok("add"), result.errors("add"));
      assertTrue(one.calls.get() >= 3 && two.calls.get() >= 3, one.calls + " and " + two.calls + " calls");
    }
  }

  @Test
  void gzipIsSetPerProtocolAndPerCall() throws Exception {
    try (CalculatorServer server = CalculatorServer.plaintext()) {
      GatlingRun gzip = run(grpc.target(server.target()).compression("gzip"), add(), 1);
      assertEquals(1, gzip.ok("add"), gzip.errors("add"));
      assertEquals("gzip", server.lastEncoding);

      GatlingRun identity =
          run(
              grpc.target(server.target()).compression("gzip"),
              exec(
                  grpc("add")
                      .unary(CalculatorGrpc.getAddMethod())
                      .payload(Operands.newBuilder().setA(1).build())
                      .compression("identity")),
              1);
      assertEquals(1, identity.ok("add"), identity.errors("add"));
      assertNull(server.lastEncoding, "no compression: no grpc-encoding");
    }
  }

  @Test
  void anUnknownCompressorIsRefusedNamingIt() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> grpc.target("127.0.0.1:1").compression("zstd"));
    assertTrue(e.getMessage().contains("expected gzip or identity, got zstd"), e.getMessage());
  }

  @Test
  void aRequestOverTheMaxOutboundSizeIsAKoResourceExhausted() throws Exception {
    try (CalculatorServer server = CalculatorServer.plaintext()) {
      GatlingRun result =
          run(
              grpc.target(server.target()).maxOutboundMessageSize(4),
              exec(
                  grpc("add")
                      .unary(CalculatorGrpc.getAddMethod())
                      .payload(Operands.newBuilder().setA(1L << 40).setB(1L << 40).build())),
              1);

      assertEquals(1, result.ko("add"));
      assertTrue(result.errors("add").contains("RESOURCE_EXHAUSTED"), result.errors("add"));
      assertEquals(0, server.calls.get());
    }
  }

  @Test
  void waitForReadyWaitsForAnAbsentServerUntilTheDeadline() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    GatlingRun result =
        run(
            grpc.target("127.0.0.1:" + port).waitForReady().deadline(Duration.ofMillis(700)),
            add(),
            1);

    assertEquals(1, result.ko("add"));
    assertTrue(result.errors("add").contains("DEADLINE_EXCEEDED"), result.errors("add"));
  }

  @Test
  void keepAliveSettingsKeepCallsWorking() throws Exception {
    try (CalculatorServer server = CalculatorServer.plaintext()) {
      GatlingRun result =
          run(grpc.target(server.target()).keepAlive(Duration.ofSeconds(30), Duration.ofSeconds(5)), add(), 1);
      assertEquals(1, result.ok("add"), result.errors("add"));
    }
  }

  @Test
  void mutualTlsCallsSucceedWithTheClientCertificate() throws Exception {
    Certificates certs = Certificates.make(certificates);
    try (CalculatorServer server = CalculatorServer.mutualTls(certs.serverPem, certs.serverKey, certs.caPem)) {
      GatlingRun result =
          run(
              grpc.target(server.target())
                  .tls(certs.caPem.getPath())
                  .overrideAuthority("localhost")
                  .clientCertificate(certs.clientPem.getPath(), certs.clientKey.getPath()),
              add(),
              1);

      assertEquals(1, result.ok("add"), result.errors("add"));
    }
  }

  @Test
  void aServerDemandingAClientCertificateRejectsACallWithoutOneAsAReadableKo() throws Exception {
    Certificates certs = Certificates.make(certificates);
    try (CalculatorServer server = CalculatorServer.mutualTls(certs.serverPem, certs.serverKey, certs.caPem)) {
      GatlingRun result =
          run(grpc.target(server.target()).tls(certs.caPem.getPath()).overrideAuthority("localhost"), add(), 1);

      assertEquals(1, result.ko("add"));
      assertTrue(result.errors("add").contains("UNAVAILABLE"), result.errors("add"));
      assertEquals(0, server.calls.get());
    }
  }

  /** A CA, a server certificate for localhost and a client certificate, made by openssl for the test. */
  private record Certificates(File caPem, File serverPem, File serverKey, File clientPem, File clientKey) {

    static synchronized Certificates make(Path dir) throws Exception {
      Path ca = dir.resolve("ca.pem");
      if (!Files.exists(ca)) {
        Files.writeString(dir.resolve("san.ext"), "subjectAltName=DNS:localhost,IP:127.0.0.1\n");
        openssl(dir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=test-ca");
        for (String name : List.of("server", "client")) {
          openssl(dir, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", name + ".key", "-out", name + ".csr", "-subj", "/CN=" + (name.equals("server") ? "localhost" : "gatling"));
          openssl(dir, "x509", "-req", "-in", name + ".csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial", "-out", name + ".pem", "-days", "2", "-extfile", "san.ext");
        }
      }
      return new Certificates(
          ca.toFile(), dir.resolve("server.pem").toFile(), dir.resolve("server.key").toFile(),
          dir.resolve("client.pem").toFile(), dir.resolve("client.key").toFile());
    }

    private static void openssl(Path dir, String... args) throws Exception {
      List<String> command = new java.util.ArrayList<>(List.of("openssl"));
      command.addAll(List.of(args));
      Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
      String output = new String(process.getInputStream().readAllBytes());
      assertTrue(process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0, command + ": " + output);
    }
  }
}
