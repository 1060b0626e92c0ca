package protocols.dubbo;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.dubbo.DubboDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.dubbo.DubboBenchmarkServer;
import benchmark.dubbo.DubboBenchmarkService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;
import simulations.DubboSimulation;

/**
 * Dubbo 3's application-level service discovery through a real ZooKeeper (a fresh one per test, so
 * that each test's providers are the only instances of their application), over both protocols.
 */
class DubboApplicationDiscoveryTest {

  private static final byte[] REQUEST = BenchmarkMessages.request().toByteArray();

  private TestingServer zookeeper;
  private String registry;

  @BeforeEach
  void startRegistry() throws Exception {
    zookeeper = new TestingServer(true);
    registry = "zookeeper://" + zookeeper.getConnectString();
  }

  @AfterEach
  void stopRegistry() throws Exception {
    zookeeper.close();
  }

  private DubboBenchmarkServer provider(String protocol, int port, Duration serviceTime) {
    return DubboBenchmarkServer.start("127.0.0.1", port, serviceTime, protocol, registry, DubboDiscovery.APPLICATION);
  }

  @Test
  void dubboSimulationCallsATripleProviderRegisteredAsAnApplicationInstance() {
    try (DubboBenchmarkServer provider = provider("tri", 0, Duration.ZERO)) {
      GatlingRun run =
          GatlingRun.run(
              DubboSimulation.class,
              Map.of("registry", registry, "serviceDiscovery", "application", "protocol", "tri", "levels", "5", "ramp", "0", "hold", "2"));

      assertEquals(0, run.exitCode, run.toString());
      assertTrue(run.ok("Say") > 0, run.toString());
      assertEquals(0, run.ko("Say"), run.errors("Say"));
    }
  }

  @Test
  void interfaceLevelDiscoveryDoesNotSeeAProviderRegisteredOnlyAsAnInstance() {
    try (DubboBenchmarkServer provider = provider("dubbo", 0, Duration.ZERO)) {
      GatlingRun run = runSays(dubbo.registry(registry).serviceDiscovery("interface"), 2, 1);

      assertEquals(2, run.ko("say"), run.toString());
      assertTrue(run.errors("say").contains("No provider available for the service " + DubboBenchmarkService.class.getName()), run.errors("say"));
    }
  }

  @Test
  void applicationFirstFallsBackToProvidersRegisteredPerInterface() {
    try (DubboBenchmarkServer provider =
        DubboBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO, "dubbo", registry, DubboDiscovery.INTERFACE)) {
      GatlingRun run = runSays(dubbo.registry(registry).serviceDiscovery("APPLICATION_FIRST"), 2, 3);

      assertEquals(6, run.ok("say"), run.errors("say"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"dubbo", "tri"})
  void aCallSlowerThanItsTimeoutIsATimeoutKo(String protocol) {
    try (DubboBenchmarkServer slow = provider(protocol, 0, Duration.ofSeconds(2))) {
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      scenario("slow")
                          .exec(
                              dubbo("slow").service(DubboBenchmarkService.class).method(DubboBenchmarkService::sayAsync).payload(REQUEST)
                                  .timeout(Duration.ofMillis(300)))
                          .injectOpen(atOnceUsers(2)))
                  .protocols(dubbo.registry(registry).serviceDiscovery("application").protocol(protocol).timeout(Duration.ofSeconds(5))));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      assertEquals(2, run.ko("slow"), run.toString());
      assertTrue(run.errors("slow").contains("within the timeout of 300 ms"), run.errors("slow"));
      assertTrue(run.request("slow").get("max").asLong() < 1_500_000, "no call waited for the provider's 2 s: " + run);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"dubbo", "tri"})
  void manyCallsOfManyUsersShareTheOneConnection(String protocol) {
    try (DubboBenchmarkServer provider = provider(protocol, 0, Duration.ZERO)) {
      AtomicLong mostConnections = new AtomicLong();
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      scenario("says")
                          .repeat(20)
                          .on(exec(dubbo("say").service(DubboBenchmarkService.class).method(DubboBenchmarkService::sayAsync).payload(REQUEST)))
                          .exec(
                              session -> {
                                mostConnections.accumulateAndGet(establishedTo(provider.port()), Math::max);
                                return session;
                              })
                          .injectOpen(atOnceUsers(10)))
                  .protocols(dubbo.registry(registry).serviceDiscovery("application").protocol(protocol)));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      assertEquals(200, run.ok("say"), run.errors("say"));
      // the consumer's connection for the calls, and Dubbo's own for fetching the instance's metadata
      assertTrue(
          mostConnections.get() >= 1 && mostConnections.get() <= 2,
          "connections to the provider while 10 users made 200 calls: " + mostConnections.get());
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"dubbo", "tri"})
  void aProviderThatGoesDownFailsCallsThenIsCalledAgainWhenItIsBack(String protocol) throws Exception {
    AtomicReference<DubboBenchmarkServer> provider = new AtomicReference<>(provider(protocol, 0, Duration.ZERO));
    int port = provider.get().port();
    AtomicReference<String> phase = new AtomicReference<>("up");
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger replies = new AtomicInteger();
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    AtomicLong end = new AtomicLong(deadline);
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("down and back")
                        .asLongAs(session -> System.nanoTime() < end.get())
                        .on(
                            exec(session -> session.set("phase", phase.get()).remove("reply"))
                                .exec(
                                    dubbo("say #{phase}")
                                        .service(DubboBenchmarkService.class)
                                        .method(DubboBenchmarkService::sayAsync)
                                        .payload(
                                            session -> {
                                              calls.incrementAndGet();
                                              return REQUEST;
                                            })
                                        .check(response((byte[] reply) -> reply.length).saveAs("reply")))
                                // a reply counts for the phase its call began in, and only while that phase lasts: a
                                // call begun while starting and answered once back made 2 of the 20 awaited at CI,
                                // and "say back" had 18 OKs
                                .exec(
                                    session -> {
                                      if (session.contains("reply") && session.getString("phase").equals(phase.get())) {
                                        replies.incrementAndGet();
                                      }
                                      return session;
                                    })
                                .pause(Duration.ofMillis(20)))
                        .injectOpen(atOnceUsers(3)))
                .protocols(dubbo.registry(registry).serviceDiscovery("application").protocol(protocol).timeout(Duration.ofSeconds(1))));
    Thread operator =
        new Thread(
            () -> {
              try {
                awaitAtLeast(replies, 20, deadline);
                phase.set("stopping");
                provider.get().close(); // unregisters the instance, then closes the port
                Thread.sleep(500); // the registry's notice reaches the consumer
                calls.set(0);
                phase.set("down");
                awaitAtLeast(calls, 20, deadline);
                phase.set("starting"); // until the registry's notice reaches the consumer, calls still fail
                replies.set(0);
                provider.set(provider(protocol, port, Duration.ZERO));
                awaitAtLeast(replies, 1, deadline);
                replies.set(0);
                phase.set("back");
                awaitAtLeast(replies, 20, deadline);
                end.set(System.nanoTime());
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });

    GatlingRun run;
    try {
      operator.start();
      run = GatlingRun.run(ProbeSimulation.class, Map.of());
    } finally {
      operator.join();
      provider.get().close();
    }

    assertTrue(run.ok("say up") >= 20, run.toString());
    assertEquals(0, run.ok("say down"), run.toString());
    assertTrue(run.ko("say down") >= 20, run.toString());
    assertTrue(run.errors("say down").contains("No provider available for the service " + DubboBenchmarkService.class.getName()), run.errors("say down"));
    assertTrue(run.ok("say back") >= 20, "called again once back: " + run);
    assertEquals(0, run.ko("say back"), run.errors("say back"));
    assertTrue(run.wallTime.toSeconds() < 75, "ended on schedule: " + run.wallTime);
  }

  private static GatlingRun runSays(DubboProtocolBuilder protocol, int users, int callsEach) {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("says")
                        .repeat(callsEach)
                        .on(
                            exec(
                                dubbo("say")
                                    .service(DubboBenchmarkService.class)
                                    .method(DubboBenchmarkService::sayAsync)
                                    .payload(REQUEST)
                                    .check(response((byte[] reply) -> reply.length > 0).is(true))))
                        .injectOpen(atOnceUsers(users)))
                .protocols(protocol.timeout(Duration.ofSeconds(5))));
    return GatlingRun.run(ProbeSimulation.class, Map.of());
  }

  /** Established TCP connections accepted on {@code port} in this machine (Linux's /proc/net/tcp*). */
  private static long establishedTo(int port) {
    String local = ":" + String.format(Locale.ROOT, "%04X", port);
    long count = 0;
    for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      Path path = Path.of(table);
      if (!Files.exists(path)) {
        continue;
      }
      List<String> lines;
      try {
        lines = Files.readAllLines(path);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      count += lines.stream()
          .skip(1)
          .map(line -> line.trim().split("\\s+"))
          .filter(fields -> fields.length > 3 && fields[1].endsWith(local) && fields[3].equals("01"))
          .count();
    }
    return count;
  }

  private static void awaitAtLeast(AtomicInteger counter, int count, long deadlineNanos) throws InterruptedException {
    while (counter.get() < count && System.nanoTime() < deadlineNanos) {
      Thread.sleep(20);
    }
  }
}
