package protocols.dubbo;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.dubbo.DubboDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.dubbo.DubboBenchmarkServer;
import benchmark.dubbo.DubboBenchmarkService;
import benchmark.pb.BenchmarkMessage;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import java.util.Map;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.model.FrameworkModel;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;

/** Dubbo calls through the real Gatling engine against the benchmark provider, and their faults. */
class DubboProtocolTest {

  private static final byte[] REQUEST = BenchmarkMessages.request().toByteArray();
  private static final String SERVICE = DubboBenchmarkService.class.getName();

  private static DubboBenchmarkServer provider;
  private static DubboBenchmarkServer slowProvider;

  @BeforeAll
  static void startProviders() {
    provider = DubboBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO);
    slowProvider = DubboBenchmarkServer.start("127.0.0.1", 0, Duration.ofSeconds(2));
  }

  @AfterAll
  static void stopProviders() {
    provider.close();
    slowProvider.close();
  }

  private static GatlingRun run(ProtocolBuilder protocol, ChainBuilder calls) {
    return run(protocol, calls, atOnceUsers(2));
  }

  private static GatlingRun run(ProtocolBuilder protocol, ChainBuilder calls, OpenInjectionStep users) {
    ProbeSimulation.define(
        sim -> sim.setUp(scenario("dubbo").exec(calls).injectOpen(users)).protocols(protocol));
    return GatlingRun.run(ProbeSimulation.class, Map.of());
  }

  private static String field1(Object reply) {
    try {
      return BenchmarkMessage.parseFrom((byte[]) reply).getField1();
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @Test
  void typedCallsGetTheProvidersReplyInEachShape() {
    GatlingRun run =
        run(
            dubbo.target("127.0.0.1:" + provider.port()),
            exec(
                dubbo("future method")
                    .service(DubboBenchmarkService.class)
                    .method(DubboBenchmarkService::sayAsync)
                    .payload(REQUEST)
                    .check(response(DubboProtocolTest::field1).is("OK")),
                dubbo("sync method")
                    .service(DubboBenchmarkService.class)
                    .syncMethod(DubboBenchmarkService::say)
                    .payload(session -> REQUEST)
                    .check(response(DubboProtocolTest::field1).is("OK")),
                dubbo("call with session")
                    .service(DubboBenchmarkService.class)
                    .call((service, session) -> service.sayAsync(REQUEST))
                    .check(responseThat("field2 is 100", (byte[] reply) -> {
                      try {
                        return BenchmarkMessage.parseFrom(reply).getField2() == 100;
                      } catch (Exception e) {
                        return false;
                      }
                    }))));

    assertEquals(2, run.ok("future method"), run.toString());
    assertEquals(2, run.ok("sync method"), run.toString());
    assertEquals(2, run.ok("call with session"), run.toString());
  }

  @Test
  void aGenericCallNeedsOnlyTheInterfaceName() {
    GatlingRun run =
        run(
            dubbo.target("dubbo://127.0.0.1:" + provider.port()),
            exec(
                dubbo("generic say")
                    .generic(SERVICE)
                    .method("say", "byte[]")
                    .arguments(session -> new Object[] {REQUEST})
                    .check(response(DubboProtocolTest::field1).is("OK"))));

    assertEquals(2, run.ok("generic say"), run.toString());
  }

  @Test
  void aWrongMethodNameOrParameterTypesInAGenericCallIsAKoNamingTheCall() {
    GatlingRun run =
        run(
            dubbo.target("127.0.0.1:" + provider.port()),
            exec(
                dubbo("no such method").generic(SERVICE).method("shout", "byte[]").arguments(REQUEST),
                dubbo("wrong types").generic(SERVICE).method("say", "java.lang.String").arguments("hello"),
                dubbo("wrong count").generic(SERVICE).method("say", "byte[]").arguments(REQUEST, REQUEST)));

    assertEquals(2, run.ko("no such method"));
    assertTrue(run.errors("no such method").contains("the provider has no method shout(byte[]) of " + SERVICE), run.errors("no such method"));
    assertEquals(2, run.ko("wrong types"));
    assertTrue(run.errors("wrong types").contains("the provider has no method say(java.lang.String)"), run.errors("wrong types"));
    assertTrue(run.errors("wrong count").contains("say(byte[]) of " + SERVICE + " takes 1 argument(s), got 2"), run.errors("wrong count"));
  }

  @Test
  void aProviderThatThrowsIsAKoWithItsMessage() {
    GatlingRun run =
        run(
            dubbo.target("127.0.0.1:" + provider.port()),
            exec(
                dubbo("garbage")
                    .service(DubboBenchmarkService.class)
                    .method(DubboBenchmarkService::sayAsync)
                    .payload(new byte[] {1, 2, 3})));

    assertEquals(2, run.ko("garbage"));
    assertTrue(run.errors("garbage").contains("IllegalArgumentException: expected an encoded BenchmarkMessage, got 3 bytes"), run.errors("garbage"));
  }

  @Test
  void aCallSlowerThanItsTimeoutIsATimeoutKoAndTheRunEndsOnSchedule() {
    GatlingRun run =
        run(
            dubbo.target("127.0.0.1:" + slowProvider.port()).timeout(Duration.ofSeconds(5)),
            exec(
                dubbo("slow")
                    .service(DubboBenchmarkService.class)
                    .method(DubboBenchmarkService::sayAsync)
                    .payload(REQUEST)
                    .timeout(Duration.ofMillis(300))));

    assertEquals(2, run.ko("slow"));
    assertTrue(run.errors("slow").contains("within the timeout of 300 ms"), run.errors("slow"));
    long min = run.request("slow").get("min").asLong();
    assertTrue(min >= 290_000 && min < 1_500_000, "Dubbo's own timeout, at 300 ms: " + min + " µs");
    assertTrue(run.request("slow").get("max").asLong() < 1_500_000, "no call waited for the provider's 2 s: " + run);
  }

  @Test
  void noProviderAtTheAddressIsAKoAndTheRunEndsOnSchedule() {
    int nobody = DubboSetup.freePort("127.0.0.1");
    GatlingRun run =
        run(
            dubbo.target("127.0.0.1:" + nobody).timeout(Duration.ofSeconds(30)),
            exec(dubbo("nobody").service(DubboBenchmarkService.class).method(DubboBenchmarkService::sayAsync).payload(REQUEST)));

    assertEquals(2, run.ko("nobody"));
    // the first call finds the connection refused, the next ones the provider marked unavailable
    String errors = run.errors("nobody");
    assertTrue(
        errors.contains("cannot connect to the provider at ") && errors.contains(":" + nobody + " (Connection refused) for \\\"nobody\\\" of " + SERVICE)
            || errors.contains("No provider available for the service " + SERVICE + " at 127.0.0.1:" + nobody),
        errors);
    assertTrue(run.request("nobody").get("max").asLong() < 2_000_000, "a KO at once, not at the 30 s timeout: " + run);
  }

  @Test
  void eachSimulationDestroysItsConsumerAndLeavesTheProvidersRunning() {
    int before = FrameworkModel.getAllInstances().size();

    GatlingRun shared =
        run(
            dubbo.target("127.0.0.1:" + provider.port()),
            exec(dubbo("shared").service(DubboBenchmarkService.class).method(DubboBenchmarkService::sayAsync).payload(REQUEST)));
    // users one after another, each with its own client: the consumer outlives each of them
    GatlingRun perUser =
        run(
            dubbo.target("127.0.0.1:" + provider.port()).connectionPerUser(),
            exec(dubbo("per user").service(DubboBenchmarkService.class).method(DubboBenchmarkService::sayAsync).payload(REQUEST)),
            rampUsers(5).during(Duration.ofMillis(1500)));

    assertEquals(2, shared.ok("shared"), shared.toString());
    assertEquals(5, perUser.ok("per user"), perUser.toString());
    assertEquals(before, FrameworkModel.getAllInstances().size(), "no Dubbo consumer left behind");
  }

  @Test
  void theTripleProtocolCarriesTheSameCalls() {
    try (DubboBenchmarkServer triple = DubboBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO, "tri", null)) {
      GatlingRun run =
          run(
              dubbo.target("tri://127.0.0.1:" + triple.port()),
              exec(
                  dubbo("tri typed").service(DubboBenchmarkService.class).method(DubboBenchmarkService::sayAsync).payload(REQUEST)
                      .check(response(DubboProtocolTest::field1).is("OK")),
                  dubbo("tri generic").generic(SERVICE).method("say", "byte[]").arguments(REQUEST)
                      .check(response(DubboProtocolTest::field1).is("OK"))));

      assertEquals(2, run.ok("tri typed"), run.toString());
      assertEquals(2, run.ok("tri generic"), run.toString());
    }
  }

  @Test
  void theSerializationSettingIsWhatGoesOnTheWire() {
    // a provider that takes hessian2 only: fastjson2 calls reach it, and it cannot read them
    FrameworkModel framework = new FrameworkModel();
    try {
      ApplicationConfig application = new ApplicationConfig("hessian2-only");
      application.setQosEnable(false);
      ProtocolConfig hessian2Only = new ProtocolConfig("dubbo", DubboSetup.freePort("127.0.0.1"));
      hessian2Only.setSerialization("hessian2");
      hessian2Only.setPreferSerialization("hessian2");
      ServiceConfig<DubboBenchmarkService> service = new ServiceConfig<>();
      service.setInterface(DubboBenchmarkService.class);
      service.setRef(BenchmarkMessages::reply);
      DubboBootstrap.newInstance(framework).application(application).registry(new RegistryConfig("N/A"))
          .protocol(hessian2Only).service(service).start();

      GatlingRun run =
          run(
              dubbo.target("127.0.0.1:" + hessian2Only.getPort()),
              exec(dubbo("hessian2").service(DubboBenchmarkService.class).method(DubboBenchmarkService::sayAsync).payload(REQUEST)));
      GatlingRun refused =
          run(
              dubbo.target("127.0.0.1:" + hessian2Only.getPort()).serialization("fastjson2"),
              exec(dubbo("fastjson2").service(DubboBenchmarkService.class).method(DubboBenchmarkService::sayAsync).payload(REQUEST)));
      GatlingRun fastjson2 =
          run(
              dubbo.target("127.0.0.1:" + provider.port()).serialization("fastjson2"),
              exec(dubbo("fastjson2").service(DubboBenchmarkService.class).method(DubboBenchmarkService::sayAsync).payload(REQUEST)
                  .check(response(DubboProtocolTest::field1).is("OK"))));

      assertEquals(2, run.ok("hessian2"), run.toString());
      assertEquals(2, refused.ko("fastjson2"), refused.toString());
      assertTrue(refused.errors("fastjson2").contains("Fail to decode request"), refused.errors("fastjson2"));
      assertEquals(2, fastjson2.ok("fastjson2"), "the benchmark provider takes both: " + fastjson2);
    } finally {
      framework.destroy();
    }
  }

  @Test
  void theProtocolTellsWhatIsMissingOrMalformed() {
    assertEquals(
        "dubbo: no provider address: add .target(\"host:port\") or .registry(\"zookeeper://host:port\")",
        assertThrows(IllegalStateException.class, () -> dubbo.protocol()).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> dubbo.target("localhost")).getMessage()
        .startsWith("dubbo.target=localhost: expected host:port or dubbo://host:port"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> dubbo.target("http://localhost:80")).getMessage()
        .startsWith("dubbo.target scheme=http: expected dubbo"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> dubbo.protocol("grpc")).getMessage()
        .startsWith("dubbo.protocol=grpc: expected dubbo"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> dubbo.registry("localhost:2181")).getMessage()
        .startsWith("dubbo.registry=localhost:2181: expected a registry address such as zookeeper://"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> dubbo.serialization("yaml")).getMessage()
        .contains("hessian2"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> dubbo.timeout(Duration.ZERO)).getMessage()
        .startsWith("dubbo.timeout: expected a positive duration"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> dubbo("x").generic("not a name")).getMessage()
        .contains("expected a fully qualified interface name"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> dubbo("x").generic(SERVICE).method("say", "byte[")).getMessage()
        .contains("expected parameter types as Java names"));
    assertEquals("dubbo(\"x\").version: expected a non-empty version, got  ",
        assertThrows(IllegalArgumentException.class, () -> dubbo("x").generic(SERVICE).version(" ")).getMessage());
    assertTrue(assertThrows(IllegalArgumentException.class, () -> dubbo("x").service(String.class)).getMessage()
        .contains("expected a Java interface, got java.lang.String"));
  }

  @Test
  void aProviderOnAPortInUseFailsWithOneClearLine() throws Exception {
    try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      IllegalStateException e =
          assertThrows(IllegalStateException.class, () -> DubboBenchmarkServer.start("127.0.0.1", taken.getLocalPort(), Duration.ZERO));
      assertTrue(e.getMessage().startsWith("Dubbo provider dubbo://127.0.0.1:" + taken.getLocalPort() + " did not start: address already in use"), e.getMessage());
      assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }
  }

}
