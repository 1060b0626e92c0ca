package protocols.dubbo;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.dubbo.DubboDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.dubbo.DubboBenchmarkServer;
import benchmark.dubbo.DubboBenchmarkService;
import benchmark.pb.BenchmarkMessage;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.Doorman;
import protocols.testkit.GatlingRun;
import protocols.testkit.ServerComesBack;

/**
 * The core reconnect backoff in front of Dubbo's clients, each of which would otherwise reconnect from
 * Dubbo's own timer once a minute (100 clients made 218 connections in 40 s against a dropping
 * listener, 14 in the busiest second, measured before the backoff).
 *
 * <p>At CI's 20 users the connection rate cannot tell a backoff from none: making Dubbo references
 * limits it to about 10 a second either way (measured with a 1 ns backoff: 9 in the busiest second,
 * 71 connections; with the default: 10 and 56). What fails without the backoff is that no call is held
 * back with "reconnecting in" (both protocols failed on it with the 1 ns backoff). The ceiling of 50 a
 * second is for {@code -DdubboBackoffUsers=1000}, where references are made faster than that. Triple's
 * references share their connections (5 for 20 users), so for tri the rate is Dubbo's own.
 */
class DubboReconnectBackoffTest {

  /** 20 for CI (each client is a Dubbo reference: tens of ms of CPU to make); {@code -DdubboBackoffUsers=1000} to measure. */
  private static final int USERS = Integer.getInteger("dubboBackoffUsers", 20);
  private static final byte[] REQUEST = BenchmarkMessages.request().toByteArray();

  private static DubboServiceRequestBuilder<DubboBenchmarkService, byte[], byte[]> say() {
    return dubbo("say").service(DubboBenchmarkService.class).method(DubboBenchmarkService::sayAsync).payload(REQUEST);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"dubbo", "tri"})
  void usersWithAClientEachAreHeldBackWhileTheProviderDropsTheirConnectionsAtMostFiftyAttemptsASecond(String protocol)
      throws Exception {
    try (Doorman doorman = new Doorman()) {
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      scenario("dropped")
                          .during(Duration.ofSeconds(3))
                          .on(exec(say()).pause(Duration.ofMillis(50)))
                          .injectOpen(atOnceUsers(USERS)))
                  .protocols(
                      dubbo.target(protocol + "://127.0.0.1:" + doorman.port())
                          .connectionPerUser()
                          .timeout(Duration.ofSeconds(1))));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      // every user's first client connects (a Dubbo reference each: seconds for all of them on a
      // loaded machine), and again at its first call (Dubbo's reconnect on send); the connections
      // after those, at most 50 in any second
      List<Long> later = doorman.accepted.stream().sorted().skip(2 * USERS).toList();
      int busiest = 0;
      for (int i = 0, j = 0; j < later.size(); j++) {
        while (later.get(j) - later.get(i) >= 1_000_000_000L) {
          i++;
        }
        busiest = Math.max(busiest, j - i + 1);
      }
      String perSecond = perSecond(doorman.accepted);
      System.out.println(
          protocol + ", " + USERS + " users: " + doorman.accepted.size() + " connections (" + perSecond + " a second), "
              + busiest + " in the busiest second after the first " + 2 * USERS);
      assertEquals(0, run.ok("say"), run.toString());
      assertTrue(run.errors("say").contains("reconnecting in "), "no call was held back by the backoff: " + run.errors("say"));
      assertTrue(
          busiest <= 50,
          busiest + " connections in the busiest second after the users' first " + 2 * USERS + ", " + perSecond + " a second; " + run);
    }
  }

  /** How many connections came in each second from the first, for the messages: "12, 30, 4". */
  private static String perSecond(java.util.Collection<Long> accepted) {
    long first = accepted.stream().mapToLong(Long::longValue).min().orElse(0);
    int[] counts = new int[(int) ((accepted.stream().mapToLong(Long::longValue).max().orElse(first) - first) / 1_000_000_000L) + 1];
    accepted.forEach(t -> counts[(int) ((t - first) / 1_000_000_000L)]++);
    return java.util.Arrays.toString(counts);
  }

  @Test
  void callsSucceedAgainWithinOneBackoffStepOnceTheProviderIsBack() throws Exception {
    // a first provider in this JVM, so that the recovery does not count Dubbo's class loading
    DubboBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO).close();
    Duration maxDelay = Duration.ofSeconds(1);
    ServerComesBack.assertCallsSucceedWithinOneStep(
        port -> DubboBenchmarkServer.start("127.0.0.1", port, Duration.ZERO),
        port -> dubbo.target("127.0.0.1:" + port)
            .connectionPerUser()
            .timeout(Duration.ofSeconds(1))
            .reconnectBackoff(Duration.ofMillis(100), maxDelay),
        maxDelay,
        say().check(responseThat("an OK reply", (byte[] reply) -> {
          try {
            return BenchmarkMessage.parseFrom(reply).getField1().equals(BenchmarkMessages.OK);
          } catch (Exception e) {
            return false;
          }
        })),
        20);
  }
}
