package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.grpc.GrpcBenchmarkServer;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloGrpc;
import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.ManagedChannel;
import io.grpc.ManagedChannelBuilder;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.Doorman;
import protocols.testkit.GatlingRun;
import protocols.testkit.ServerComesBack;

/**
 * The core reconnect backoff in front of grpc-java's channels: a thousand users with a channel each,
 * against a target that drops every connection or refuses it, a target that comes back, and a real
 * server that goes away mid-run and comes back ({@code -DgrpcBackoffUsers=N} for another count there).
 */
class GrpcReconnectBackoffTest {

  private static GrpcUnaryRequestBuilder<BenchmarkMessage, BenchmarkMessage> say() {
    return grpc("say").unary(HelloGrpc.getSayMethod()).payload(BenchmarkMessages.request());
  }

  private static GatlingRun aThousandUsersFor(Duration time, int port) {
    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("dead target")
                        .during(time)
                        .on(exec(say()).pause(Duration.ofMillis(50)))
                        .injectOpen(atOnceUsers(1000)))
                .protocols(grpc.target("127.0.0.1:" + port).channelPerUser()));
    return GatlingRun.run(ProbeSimulation.class, Map.of());
  }

  @Test
  void aThousandUsersMakeAtMostFiftyConnectionAttemptsASecondAgainstATargetThatDropsThem() throws Exception {
    try (Doorman doorman = new Doorman()) {
      // 4 s: the doorman accepts the first thousand one after the other, seconds on a loaded machine
      GatlingRun run = aThousandUsersFor(Duration.ofSeconds(4), doorman.port());

      // the users' first channels (1000), then at most 50 a second; grpc-java's own backoff alone
      // would have each channel knock again after 1 s, 2.6 s, 5.2 s...
      long attempts = doorman.accepted.size();
      assertTrue(attempts <= 1000 + 3 * 50, attempts + " connections; " + run);
      assertEquals(0, run.ok("say"), run.toString());
      assertTrue(run.errors("say").contains("reconnecting in "), run.errors("say"));
      assertTrue(run.errors("say").contains("after: UNAVAILABLE"), run.errors("say"));
    }
  }

  @Test
  void aThousandUsersMakeAtMostFiftyConnectionAttemptsASecondAgainstARefusingPort() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort(); // closed again: nothing listens there during the run
    }
    GatlingRun run = aThousandUsersFor(Duration.ofSeconds(3), port);

    // nothing to count on the far side: every attempt fails the one call that opened its channel with
    // "Connection refused", every call the backoff holds back says "reconnecting in"
    long attempts = 0;
    JsonNode errors = run.request("say").path("errors");
    for (var e = errors.fields(); e.hasNext(); ) {
      var error = e.next();
      if (!error.getKey().startsWith("reconnecting in ") && error.getKey().contains("Connection refused")) {
        attempts += error.getValue().asLong();
      }
    }
    assertTrue(attempts > 0, "no call failed with Connection refused: " + run.errors("say"));
    assertTrue(attempts <= 1000 + 2 * 50, attempts + " refused connections in " + run.count("say") + " calls");
    assertTrue(run.errors("say").matches(".*reconnecting in \\d+ ms after: UNAVAILABLE: io exception \\(.*Connection refused.*"), run.errors("say"));
  }


  /**
   * One call to a server of its own first: on a loaded machine a new JVM's first gRPC call on both
   * sides (class loading, first compilations) took about a second, which the recovery must not count.
   */
  private static void warmUp() throws Exception {
    GrpcBenchmarkServer server = GrpcBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO);
    ManagedChannel channel = ManagedChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
    try {
      HelloGrpc.newBlockingStub(channel).withDeadlineAfter(20, TimeUnit.SECONDS).say(BenchmarkMessages.request());
    } finally {
      channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      server.close();
    }
  }

  @Test
  void callsSucceedAgainWithinOneBackoffStepOnceTheServerIsBack() throws Exception {
    warmUp();
    Duration maxDelay = Duration.ofSeconds(1);
    ServerComesBack.assertCallsSucceedWithinOneStep(
        port -> GrpcBenchmarkServer.start("127.0.0.1", port, Duration.ZERO),
        port -> grpc.target("127.0.0.1:" + port).channelPerUser().reconnectBackoff(Duration.ofMillis(100), maxDelay),
        maxDelay,
        say().check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK)),
        50);
  }

  /** Users with a channel each in the lost-server test; {@code -DgrpcBackoffUsers=N} to try another count. */
  private static final int LOST_SERVER_USERS = Integer.getInteger("grpcBackoffUsers", 1000);

  /** How long the lost server stays away: long enough for a backoff of 100 ms doubling to reach 1 s and stay there. */
  private static final long DOWN_MILLIS = 5000;

  /** One time the server went away: when, what knocked on its port meanwhile, when it came back, and who had an OK again. */
  private static final class Outage {
    volatile long down;
    volatile long doormanLeft;
    volatile long back;
    final List<Long> knocks = new ArrayList<>();
    final Map<Long, Long> okAgain = new ConcurrentHashMap<>();
  }

  /**
   * Channels that were READY and lost their server mid-run: while it is away (a {@link Doorman} on its
   * port counts every connection), the users' channels knock through the pool's backoff, not on
   * grpc-java's schedule per channel; once the server is back on the same port, calls are OK again
   * within one of our steps, not after grpc-java's current step (up to 120 s). Twice: the second
   * outage comes after a backoff that ended, whose probe must not end the next one.
   */
  @Test
  void channelsThatLoseTheirServerMidRunKnockAtMostFiftyTimesASecondAndRecoverWithinOneStep() throws Exception {
    warmUp();
    int users = LOST_SERVER_USERS;
    Duration maxDelay = Duration.ofSeconds(1);
    int port;
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    AtomicReference<GrpcBenchmarkServer> server =
        new AtomicReference<>(GrpcBenchmarkServer.start("127.0.0.1", port, Duration.ZERO));
    Map<Long, Long> okBefore = new ConcurrentHashMap<>();
    List<Outage> outages = List.of(new Outage(), new Outage());
    AtomicReference<Outage> over = new AtomicReference<>(); // the last outage the server came back from
    AtomicBoolean done = new AtomicBoolean();
    AtomicReference<Throwable> driverFailure = new AtomicReference<>();

    Thread driver =
        new Thread(
            () -> {
              try {
                Map<Long, Long> okSoFar = okBefore;
                for (Outage outage : outages) {
                  Map<Long, Long> ok = okSoFar;
                  // the bounds are for a machine far past its 2 cores: at a load of 21, 1000 users took 13 s
                  awaitTrue(() -> ok.size() == users, 40_000, () -> ok.size() + " of " + users + " users had an OK before the stop");
                  server.getAndSet(null).close();
                  outage.down = System.nanoTime();
                  try (Doorman doorman = bindAgain(port)) {
                    Thread.sleep(DOWN_MILLIS);
                    outage.doormanLeft = System.nanoTime();
                    doorman.close();
                    outage.knocks.addAll(doorman.accepted);
                  }
                  server.set(startAgain(port));
                  outage.back = System.nanoTime();
                  over.set(outage);
                  okSoFar = outage.okAgain;
                }
                Map<Long, Long> last = okSoFar;
                awaitTrue(() -> last.size() == users, 40_000, () -> last.size() + " of " + users + " users had an OK again");
              } catch (Throwable e) {
                driverFailure.set(e);
              } finally {
                done.set(true);
              }
            },
            "lost-server-driver");
    driver.setDaemon(true);

    ProbeSimulation.define(
        sim ->
            sim.setUp(
                    scenario("lost server")
                        .asLongAsDuring(session -> !done.get(), Duration.ofSeconds(180))
                        .on(
                            exec(say().check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK)))
                                .exec(
                                    session -> {
                                      if (!session.isFailed()) {
                                        long now = System.nanoTime();
                                        Outage outage = over.get();
                                        (outage != null && now > outage.back ? outage.okAgain : okBefore).putIfAbsent(session.userId(), now);
                                      }
                                      return session.markAsSucceeded();
                                    })
                                .pause(Duration.ofMillis(50)))
                        .injectOpen(atOnceUsers(users)))
                .protocols(grpc.target("127.0.0.1:" + port).channelPerUser().reconnectBackoff(Duration.ofMillis(100), maxDelay)));
    GatlingRun run;
    try {
      driver.start();
      run = GatlingRun.run(ProbeSimulation.class, Map.of());
      driver.join(60_000);
    } finally {
      GrpcBenchmarkServer left = server.get();
      if (left != null) {
        left.close();
      }
    }

    String load = loadAverage();
    assertNull(driverFailure.get(), () -> driverFailure.get() + "; " + load + "; KOs: " + run.errors("say"));
    List<String> figures = new ArrayList<>();
    for (Outage outage : outages) {
      // once the first second after the stop has passed: at most 50 connection attempts a second in all
      long afterFirstSecond = outage.down + 1_000_000_000L;
      long counted = outage.knocks.stream().filter(t -> t >= afterFirstSecond).count();
      double seconds = (outage.doormanLeft - afterFirstSecond) / 1e9;
      long firstMillis = (outage.okAgain.values().stream().mapToLong(Long::longValue).min().orElseThrow() - outage.back) / 1_000_000;
      long allMillis = (outage.okAgain.values().stream().mapToLong(Long::longValue).max().orElseThrow() - outage.back) / 1_000_000;
      figures.add(
          "outage " + (figures.size() + 1) + ": " + counted + " connections in the " + String.format("%.1f", seconds)
              + " s after its first second (" + String.format("%.1f", counted / seconds) + "/s), " + outage.knocks.size()
              + " in all, by second " + perSecond(outage.knocks, outage.down) + "; first OK " + firstMillis
              + " ms after the server came back, every user's " + allMillis + " ms");
    }
    String all = String.join("; ", figures) + "; " + users + " users; " + load;
    System.out.println("lost server: " + all);
    for (int i = 0; i < outages.size(); i++) {
      Outage outage = outages.get(i);
      long afterFirstSecond = outage.down + 1_000_000_000L;
      long counted = outage.knocks.stream().filter(t -> t >= afterFirstSecond).count();
      double seconds = (outage.doormanLeft - afterFirstSecond) / 1e9;
      assertTrue(counted > 0, "outage " + (i + 1) + ": no channel tried to reconnect while the server was away: " + all);
      assertTrue(counted <= 50 * seconds, "outage " + (i + 1) + ": " + all);
      long firstMillis = (outage.okAgain.values().stream().mapToLong(Long::longValue).min().orElseThrow() - outage.back) / 1_000_000;
      // one step of at most maxDelay, plus slack for a loaded machine
      assertTrue(firstMillis <= maxDelay.toMillis() + 1500, "outage " + (i + 1) + ": " + all + "; KOs: " + run.errors("say"));
    }
    // the first calls' DEADLINE_EXCEEDED, each naming its own delays, are one kind of message in the
    // record: they no longer crowd the RECONNECTING KOs out of its hundred kinds
    String errors = run.errors("say");
    assertTrue(errors.contains("reconnecting in "), errors);
  }

  private interface Condition {
    boolean holds();
  }

  private static void awaitTrue(Condition condition, long millis, java.util.function.Supplier<String> otherwise) throws InterruptedException {
    long until = System.nanoTime() + millis * 1_000_000;
    while (!condition.holds()) {
      if (System.nanoTime() > until) {
        throw new AssertionError("after " + millis + " ms: " + otherwise.get());
      }
      Thread.sleep(20);
    }
  }

  /** The port was the server's a moment ago; a reconnecting client may hold it for a moment (see ServerComesBack). */
  private static Doorman bindAgain(int port) throws Exception {
    long giveUp = System.nanoTime() + 3_000_000_000L;
    while (true) {
      try {
        return new Doorman(port);
      } catch (java.io.IOException held) {
        if (System.nanoTime() > giveUp) {
          throw held;
        }
        Thread.sleep(20);
      }
    }
  }

  private static GrpcBenchmarkServer startAgain(int port) throws Exception {
    long giveUp = System.nanoTime() + 3_000_000_000L;
    while (true) {
      try {
        return GrpcBenchmarkServer.start("127.0.0.1", port, Duration.ZERO);
      } catch (Exception held) {
        if (System.nanoTime() > giveUp) {
          throw held;
        }
        Thread.sleep(20);
      }
    }
  }

  private static Map<Long, Integer> perSecond(List<Long> times, long from) {
    Map<Long, Integer> bySecond = new TreeMap<>();
    for (long t : times) {
      bySecond.merge((t - from) / 1_000_000_000L, 1, Integer::sum);
    }
    return bySecond;
  }

  private static String loadAverage() {
    try {
      return "load average " + java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).trim();
    } catch (java.io.IOException e) {
      return "load average unknown";
    }
  }
}
