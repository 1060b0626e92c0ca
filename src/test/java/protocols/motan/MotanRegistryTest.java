package protocols.motan;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.motan.MotanDsl.*;

import benchmark.motan.BenchmarkService;
import benchmark.motan.MotanProvider;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import protocols.testkit.GatlingRun;
import simulations.MotanSimulation;

/** Providers found through a real ZooKeeper (Motan's zookeeper:// registry), started in this JVM. */
class MotanRegistryTest {

  private static TestingServer zookeeper;
  private static String registry;

  @BeforeAll
  static void startRegistry() throws Exception {
    zookeeper = new TestingServer(true);
    registry = "zookeeper://" + zookeeper.getConnectString();
  }

  @AfterAll
  static void stopRegistry() throws Exception {
    zookeeper.close();
  }

  /** A calculator that counts the calls it serves, so a test can tell which provider answered. */
  static final class CountingCalculator extends AnyMotanServiceTest.CalculatorImpl {
    final AtomicInteger served = new AtomicInteger();

    @Override
    public int add(int a, int b) {
      served.incrementAndGet();
      return super.add(a, b);
    }
  }

  @Test
  void motanSimulationRegistersItsProviderAndCallsItThroughTheRegistry() throws Exception {
    GatlingRun run =
        GatlingRun.run(MotanSimulation.class, Map.of("registry", registry, "levels", "5", "ramp", "0", "hold", "2"));

    assertEquals(0, run.exitCode, run.toString());
    assertTrue(run.ok("Say") > 0, run.toString());
    assertEquals(0, run.ko("Say"), run.errors("Say"));
    // the provider left the registry when the simulation ended
    assertEquals(List.of(), registered("default_rpc", BenchmarkService.class), "unregistered at the end");
  }

  @Test
  void aProviderThatRegistersLateIsCalledOnceItIsThere() throws Exception {
    String group = "late";
    AtomicReference<String> phase = new AtomicReference<>("unregistered");
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger replies = new AtomicInteger();
    AtomicReference<MotanProvider<Calculator>> provider = new AtomicReference<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
    AtomicLong end = new AtomicLong(deadline);
    defineAdds(group, phase, calls, replies, end);
    Thread operator =
        new Thread(
            () -> {
              try {
                awaitAtLeast(calls, 20, deadline);
                phase.set("registering"); // calls that overlap the registration may go either way
                provider.set(export(new CountingCalculator(), group));
                phase.set("registered");
                replies.set(0);
                awaitAtLeast(replies, 20, deadline);
                end.set(System.nanoTime());
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });

    GatlingRun run;
    try {
      operator.start();
      run = GatlingRun.run(MotanTestSimulation.class, Map.of());
    } finally {
      operator.join();
      if (provider.get() != null) {
        provider.get().close();
      }
    }

    assertEquals(0, run.ok("add unregistered"), run.toString());
    assertTrue(run.ko("add unregistered") >= 20, run.toString());
    run.request("add unregistered").get("errors").fieldNames().forEachRemaining(
        message -> assertTrue(message.startsWith("UNAVAILABLE: ") && message.contains(Calculator.class.getName()), message));
    assertTrue(run.ok("add registered") >= 20, "called once registered: " + run);
    assertTrue(run.wallTime.toSeconds() < 60, "ended on schedule: " + run.wallTime);
  }

  @Test
  void theCallsOfAProviderThatLeavesMoveToTheRemainingOne() throws Exception {
    String group = "leaving";
    CountingCalculator leaving = new CountingCalculator();
    CountingCalculator staying = new CountingCalculator();
    AtomicReference<String> phase = new AtomicReference<>("both");
    AtomicInteger calls = new AtomicInteger();
    AtomicInteger replies = new AtomicInteger();
    AtomicInteger servedByLeavingAfterItLeft = new AtomicInteger(-1);
    long deadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
    AtomicLong end = new AtomicLong(deadline);
    MotanProvider<Calculator> leavingProvider = export(leaving, group);
    MotanProvider<Calculator> stayingProvider = export(staying, group);
    defineAdds(group, phase, calls, replies, end);
    Thread operator =
        new Thread(
            () -> {
              try {
                // both serve before one leaves: the client found both in the registry
                while ((leaving.served.get() < 10 || staying.served.get() < 10) && System.nanoTime() < deadline) {
                  Thread.sleep(20);
                }
                phase.set("leaving");
                leavingProvider.close(); // unregisters, then closes its port
                Thread.sleep(1000); // the registry's notice reaches the client
                int servedBefore = leaving.served.get();
                phase.set("one left");
                replies.set(0);
                awaitAtLeast(replies, 40, deadline);
                servedByLeavingAfterItLeft.set(leaving.served.get() - servedBefore);
                end.set(System.nanoTime());
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });

    GatlingRun run;
    try {
      operator.start();
      run = GatlingRun.run(MotanTestSimulation.class, Map.of());
    } finally {
      operator.join();
      leavingProvider.close();
      stayingProvider.close();
    }

    assertTrue(run.ok("add both") > 0, run.toString());
    assertTrue(run.ok("add one left") >= 30, run.toString()); // the operator awaited 40 of this phase
    assertEquals(0, run.ko("add one left"), "no call fails once the provider has left: " + run.errors("add one left"));
    assertEquals(0, servedByLeavingAfterItLeft.get(), "the provider that left serves no more calls");
    assertTrue(run.wallTime.toSeconds() < 60, "ended on schedule: " + run.wallTime);
  }

  /**
   * Five users adding 21 + 21 until {@code end}, each request named by the phase it started in; {@code
   * replies} counts the right answers to calls of the phase still current.
   */
  private static void defineAdds(
      String group, AtomicReference<String> phase, AtomicInteger calls, AtomicInteger replies, AtomicLong end) {
    MotanTestSimulation.define(
        sim ->
            sim.setUp(
                    scenario("adds through " + group)
                        .asLongAs(session -> System.nanoTime() < end.get())
                        .on(
                            exec(session -> session.set("phase", phase.get()).remove("sum"))
                                .exec(
                                    motan("add #{phase}")
                                        .service(CalculatorAsync.class)
                                        .call((CalculatorAsync calculator, Integer n) -> calculator.addAsync(n, n), Integer.class)
                                        .payload(
                                            session -> {
                                              calls.incrementAndGet();
                                              return 21;
                                            })
                                        .check(response((Integer sum) -> sum).is(42).saveAs("sum")))
                                // a reply counts for the phase its call began in, and only while that phase lasts:
                                // a call begun before the phase changed must not make up the count the operator awaits
                                .exec(
                                    session -> {
                                      if (session.contains("sum") && session.getString("phase").equals(phase.get())) {
                                        replies.incrementAndGet();
                                      }
                                      return session;
                                    })
                                .pause(Duration.ofMillis(20)))
                        .injectOpen(atOnceUsers(5)))
                .protocols(motan.registry(registry).group(group).requestTimeout(Duration.ofSeconds(1))));
  }

  private static MotanProvider<Calculator> export(Calculator calculator, String group) {
    return MotanProvider.export(Calculator.class, calculator, MotanProvider.options().group(group).registry(registry));
  }

  /** The providers Motan's zookeeper registry lists as available for {@code type} in {@code group}. */
  private static List<String> registered(String group, Class<?> type) throws Exception {
    try (CuratorFramework client =
        CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), new RetryOneTime(100))) {
      client.start();
      String path = "/motan/" + group + "/" + type.getName() + "/server";
      return client.checkExists().forPath(path) == null ? List.of() : client.getChildren().forPath(path);
    }
  }

  private static void awaitAtLeast(AtomicInteger counter, int count, long deadlineNanos) throws InterruptedException {
    while (counter.get() < count && System.nanoTime() < deadlineNanos) {
      Thread.sleep(20);
    }
  }
}
