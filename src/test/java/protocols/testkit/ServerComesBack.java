package protocols.testkit;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;

import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import protocols.core.ProbeSimulation;

/**
 * The recovery half of a reconnect backoff test, for any framework: users call a dead target (a
 * {@link Doorman}) until a real server takes its port, and their first OK must come within one backoff
 * step of the server's return.
 */
public final class ServerComesBack {

  /** Starts a real server on the given port. */
  @FunctionalInterface
  public interface ServerOnPort {
    AutoCloseable start(int port) throws Exception;
  }

  /** Long enough for a backoff of 100 ms doubling to reach its longest delay of a second. */
  private static final long DEAD_FOR_MILLIS = 2500;
  /** How long the target stays dead at most, waiting for the users' failed calls: well inside the 20 s run. */
  private static final long FAILING_AT_MOST_NANOS = 10_000_000_000L;

  private ServerComesBack() {}

  /**
   * {@code users} users call {@code call} (named "say", failing its check unless the real server
   * answered) in a loop until the first OK, at most 20 s, over {@code protocolOnPort}, whose reconnect
   * backoff must be capped at {@code maxDelay}.
   */
  public static void assertCallsSucceedWithinOneStep(
      ServerOnPort server, IntFunction<ProtocolBuilder> protocolOnPort, Duration maxDelay, ActionBuilder call, int users)
      throws Exception {
    AtomicLong back = new AtomicLong();
    AtomicLong firstOk = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    AtomicReference<AutoCloseable> started = new AtomicReference<>();
    AtomicReference<Throwable> swapFailure = new AtomicReference<>();
    try (Doorman doorman = new Doorman()) {
      int port = doorman.port();
      doorman.afterFirst =
          () -> {
            Thread swap =
                new Thread(
                    () -> {
                      try {
                        Thread.sleep(DEAD_FOR_MILLIS);
                        // and until every user has failed twice: on a slow machine users still making
                        // their clients (a Dubbo reference each) met a dead target only after it was back
                        long giveUp = System.nanoTime() + FAILING_AT_MOST_NANOS;
                        while (failed.get() < 2L * users && System.nanoTime() < giveUp) {
                          Thread.sleep(20);
                        }
                        doorman.close();
                        started.set(startOnTheSamePort(server, port));
                        back.set(System.nanoTime());
                      } catch (Exception e) {
                        swapFailure.set(e);
                      }
                    },
                    "server-comes-back");
            swap.setDaemon(true);
            swap.start();
          };
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      // until the first OK, so a slow swap on a loaded machine still falls inside the run
                      scenario("back")
                          .asLongAsDuring(session -> firstOk.get() == 0, Duration.ofSeconds(20))
                          .on(
                              exec(call)
                                  .exec(
                                      session -> {
                                        if (!session.isFailed()) {
                                          firstOk.compareAndSet(0, System.nanoTime());
                                        } else {
                                          failed.incrementAndGet();
                                        }
                                        return session.markAsSucceeded();
                                      })
                                  .pause(Duration.ofMillis(50)))
                          .injectOpen(atOnceUsers(users)))
                  .protocols(protocolOnPort.apply(port)));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      assertNull(swapFailure.get(), "the server could not come back on port " + port);
      assertTrue(back.get() != 0, "the server came back during the run: " + run);
      assertTrue(run.ok("say") > 0, run.toString());
      long recoveredMillis = (firstOk.get() - back.get()) / 1_000_000;
      // one step of at most maxDelay, plus slack for a loaded machine
      assertTrue(
          recoveredMillis <= maxDelay.toMillis() + 1500,
          "first OK " + recoveredMillis + " ms after the server came back; KOs: " + run.errors("say"));
      assertTrue(run.errors("say").contains("reconnecting in "), run.errors("say"));
    } finally {
      if (started.get() != null) {
        started.get().close();
      }
    }
  }

  /**
   * Binding the doorman's port again can fail for a moment while a reconnecting client holds it (a
   * loopback connect to a closed port may pick that very port as its own and connect to itself).
   */
  private static AutoCloseable startOnTheSamePort(ServerOnPort server, int port) throws Exception {
    long giveUp = System.nanoTime() + 3_000_000_000L;
    while (true) {
      try {
        return server.start(port);
      } catch (Exception held) {
        if (System.nanoTime() > giveUp) {
          throw held;
        }
        Thread.sleep(50);
      }
    }
  }
}
