package protocols.thrift;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.thrift.ThriftDsl.*;

import benchmark.thrift.ThriftBenchmarkMessages;
import benchmark.thrift.ThriftBenchmarkServer;
import benchmark.thrift.gen.BenchmarkMessage;
import benchmark.thrift.gen.Greeter;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.Doorman;
import protocols.testkit.GatlingRun;

/**
 * The reconnect backoff (protocols.core.ReconnectBackoff) through the real Gatling engine: a thousand
 * users with a connection each, against a target that accepts every connection and closes it at once.
 */
class ThriftReconnectBackoffTest {

  private static ThriftRequestBuilder<Greeter.AsyncClient, BenchmarkMessage, BenchmarkMessage> say() {
    return thrift("say")
        .service(Greeter.AsyncClient::new)
        .call(Greeter.AsyncClient::say)
        .payload(ThriftBenchmarkMessages.request());
  }

  @Test
  void aThousandUsersMakeAtMostFiftyConnectionAttemptsASecondAgainstATargetThatDropsThem() throws Exception {
    try (Doorman doorman = new Doorman()) {
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      scenario("dropped")
                          .during(Duration.ofSeconds(4))
                          .on(exec(say()).pause(Duration.ofMillis(50)))
                          .injectOpen(atOnceUsers(1000)))
                  .protocols(thrift.target("127.0.0.1:" + doorman.port()).connectionPerUser()));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      // the first second holds the users' first attempts (1000, accepted here one after the other),
      // the other 3 at most 50 a second; without the backoff, every call of every user reconnects
      long attempts = doorman.accepted.size();
      assertTrue(attempts <= 1000 + 3 * 50, attempts + " connections; " + run);
      assertEquals(0, run.ok("say"), run.toString());
      assertTrue(run.errors("say").contains("reconnecting in "), run.errors("say"));
      assertTrue(run.errors("say").contains("after: the connection to 127.0.0.1:" + doorman.port() + " broke"), run.errors("say"));
    }
  }

  /**
   * Binding the doorman's port again can fail for a moment while a reconnecting client holds it (a
   * loopback connect to a closed port may pick that very port as its own and connect to itself).
   */
  private static ThriftBenchmarkServer startOnTheSamePort(int port) throws Exception {
    long giveUp = System.nanoTime() + 3_000_000_000L;
    while (true) {
      try {
        return ThriftBenchmarkServer.start("127.0.0.1", port, Duration.ZERO);
      } catch (org.apache.thrift.transport.TTransportException held) {
        if (System.nanoTime() > giveUp) {
          throw held;
        }
        Thread.sleep(50);
      }
    }
  }

  @Test
  void callsSucceedAgainWithinOneBackoffStepOnceTheServerIsBack() throws Exception {
    Duration maxDelay = Duration.ofSeconds(1);
    AtomicLong back = new AtomicLong();
    AtomicLong firstOk = new AtomicLong();
    AtomicReference<ThriftBenchmarkServer> server = new AtomicReference<>();
    AtomicReference<Throwable> swapFailure = new AtomicReference<>();
    try (Doorman doorman = new Doorman()) {
      int port = doorman.port();
      doorman.afterFirst =
          () -> {
            Thread swap =
                new Thread(
                    () -> {
                      try {
                        Thread.sleep(2500); // long enough for the backoff to reach its longest delay
                        doorman.close();
                        server.set(startOnTheSamePort(port));
                        back.set(System.nanoTime());
                      } catch (Exception e) {
                        swapFailure.set(e);
                      }
                    });
            swap.setDaemon(true);
            swap.start();
          };
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      // until the first OK (so a slow swap on a loaded machine still falls inside the run)
                      scenario("back")
                          .asLongAsDuring(session -> firstOk.get() == 0, Duration.ofSeconds(20))
                          .on(
                              exec(say().check(response(BenchmarkMessage::getField1).is("OK")))
                                  .exec(
                                      session -> {
                                        if (!session.isFailed()) {
                                          firstOk.compareAndSet(0, System.nanoTime());
                                        }
                                        return session.markAsSucceeded();
                                      })
                                  .pause(Duration.ofMillis(50)))
                          .injectOpen(atOnceUsers(50)))
                  .protocols(
                      thrift
                          .target("127.0.0.1:" + port)
                          .connectionPerUser()
                          .reconnectBackoff(Duration.ofMillis(100), maxDelay)));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      assertNull(swapFailure.get(), "the server could not come back on port " + port);
      assertTrue(back.get() != 0, "the server came back during the run: " + run);
      assertTrue(run.ok("say") > 0, run.toString());
      long recoveredMillis = (firstOk.get() - back.get()) / 1_000_000;
      // one step of at most maxDelay, plus slack for a loaded machine
      assertTrue(recoveredMillis <= maxDelay.toMillis() + 1500, "first OK " + recoveredMillis + " ms after the server came back");
      assertTrue(run.errors("say").contains("reconnecting in "), run.errors("say"));
    } finally {
      if (server.get() != null) {
        server.get().close();
      }
    }
  }
}
