package benchmark.matrix;

import static org.junit.jupiter.api.Assertions.*;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloGrpc;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** -Dsaturation: rates rising per framework until the response time from the intended send breaks the SLO. */
class SaturationTest {

  @TempDir Path out;

  private static Properties props(String... keyValues) {
    Properties p = new Properties();
    for (int i = 0; i < keyValues.length; i += 2) {
      p.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return p;
  }

  @Test
  void theSweepFindsTheKneeOfAServerBoundByItsWorkerThreads() throws Exception {
    // each step is a fresh JVM timed to the millisecond: with builds queueing on every core (a load
    // average of 25 on 2 cores: a 250 ms call took 3 s) the figures measure the machine, not the server.
    // The earlier tests' JVMs leave a load average that decays within a minute: wait for it, then run
    // (a failure then says the load it ran under)
    int cores = Runtime.getRuntime().availableProcessors();
    double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    for (long giveUp = System.nanoTime() + 90_000_000_000L; load >= 2 * cores && System.nanoTime() < giveUp; ) {
      Thread.sleep(2000);
      load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }
    String under = " (load average " + load + " on " + cores + " cores)";
    // a gRPC Hello/Say server whose one worker thread holds each call 250 ms: 4 calls/s at most; 2 calls/s
    // keep it half busy, 5 queue one more call every second: a quarter second more wait each second, 4 s
    // by the end of the step, well inside the calls' 10 s timeout even with a start-up backlog queued
    // before it (at 6 calls/s a cold CI machine's backlog plus 8 s of queue made a call time out, and the
    // knee read "1 KO" instead of the queue's wait). Low rates and a long warm-up: on a busy
    // machine a fresh injector JVM takes seconds to connect, and the backlog of calls due meanwhile
    // must drain before the measured period. The SLO on the median: at these rates a step has a few
    // dozen calls, and their p99 is their slowest, one descheduled thread on a busy machine
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .executor(Executors.newSingleThreadExecutor())
        .addService(new HelloGrpc.HelloImplBase() {
          @Override
          public void say(BenchmarkMessage request, StreamObserver<BenchmarkMessage> responses) {
            try {
              Thread.sleep(250);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            responses.onNext(BenchmarkMessages.reply(request));
            responses.onCompleted();
          }
        })
        .build().start();
    try {
      Properties p = props("frameworks", "grpc", "target.grpc", "127.0.0.1:" + server.getPort(), "saturation", "p50:1s",
          "startRate", "2", "rateFactor", "2.5", "maxRate", "5", "refine", "0", "warmup", "10", "hold", "6", "out", out.toString());

      int exit = Matrix.execute(MatrixSettings.from(p));

      Results results = Report.read(out.resolve("results.json"), "results");
      assertEquals(0, exit, under);
      assertEquals(List.of(2, 5), results.saturation().stream().map(SweepStep::rate).toList(), results.saturation() + under);
      Knee knee = results.knees().get(0);
      assertEquals(2, knee.sustainableRate(), "below the 4 calls/s the workers can serve: " + results.saturation() + under);
      assertEquals(5, knee.brokenRate(), knee + under);
      assertTrue(knee.why().startsWith("intended p50 "), "broken by the queue's wait, the injector keeping its rate: " + knee + under);
      SweepStep past = results.saturation().get(1);
      assertTrue(past.intendedP50() > 2_000_000 && past.achievedRate() >= 0.99 * 5, "past the knee the queue grows all the step long: " + past + under);
      assertTrue(Files.readString(out.resolve("report.html")).contains("chart-saturation-"), "the curve is drawn");
      assertTrue(Files.readString(out.resolve("saturation.csv")).startsWith("framework,target_per_s,achieved_per_s"));
    } finally {
      server.shutdownNow();
    }
  }

  @Test
  void fixedRatesRunEveryRateOnceAndDrawTheirCurveWithoutAKnee() throws Exception {
    Server server = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
        .addService(new HelloGrpc.HelloImplBase() {
          @Override
          public void say(BenchmarkMessage request, StreamObserver<BenchmarkMessage> responses) {
            responses.onNext(BenchmarkMessages.reply(request));
            responses.onCompleted();
          }
        })
        .build().start();
    try {
      Properties p = props("frameworks", "grpc", "target.grpc", "127.0.0.1:" + server.getPort(), "rates", "20,40",
          "warmup", "3", "hold", "3", "out", out.toString());

      Matrix.execute(MatrixSettings.from(p));

      Results results = Report.read(out.resolve("results.json"), "results");
      assertEquals(List.of(20, 40), results.saturation().stream().map(SweepStep::rate).toList(), results.saturation().toString());
      assertTrue(results.saturation().stream().allMatch(st -> st.count() > 0 && st.ko() == 0), "every rate ran, no KO: " + results.saturation());
      assertTrue(results.knees().isEmpty(), "no SLO, so no knee: " + results.knees());
      assertEquals("[20, 40] calls/s", results.settings().get("rates"));
      assertTrue(Files.readString(out.resolve("report.html")).contains("chart-saturation-"), "the curve is drawn");
    } finally {
      server.shutdownNow();
    }
  }

  @Test
  void fixedRatesRefuseTheSweep() {
    String m = assertThrows(IllegalArgumentException.class, () -> MatrixSettings.from(props("saturation", "p99:50ms", "rates", "100"))).getMessage();
    assertTrue(m.startsWith("-Dsaturation with -Drate/-Drates: expected one of them"), m);
  }

  @Test
  void rateStepsAndTheSweepRunOnSeveralInjectorsJudgedOnTheirMerge() {
    // a merge keeps the intended-time figures, late sends and rates that a step is judged on
    assertEquals(2, MatrixSettings.from(props("rate", "100", "injectors", "2")).injectors());
    assertEquals(3, MatrixSettings.from(props("saturation", "p99:50ms", "injectors", "3")).injectors());
  }

  @Test
  void aStallIsPassedToTheServersAndStatedInTheSettings() {
    MatrixSettings settings = MatrixSettings.from(props("stall", "1s/10s", "rates", "100", "pacing", "paced", "pool", "50"));

    assertEquals("every 10s, replies wait 1s", settings.describe().get("server stall"));
    assertEquals(List.of("-Dpacing=paced", "-Dpool=50"), settings.rateOptions());
  }

  @Test
  void ratesRiseGeometricallyUpToTheMaximum() {
    Saturation s = Saturation.from(props("saturation", "p99:50ms", "startRate", "1000", "rateFactor", "2", "maxRate", "10000"));

    assertEquals(List.of(1000, 2000, 4000, 8000), s.rates());
    assertEquals("p99", s.percentile());
    assertEquals(50, s.slo().toMillis());
  }

  @Test
  void aStepIsSustainableOnlyWhenOkKeptAndWithinTheSlo() {
    Saturation s = Saturation.from(props("saturation", "p99:50ms"));
    SweepStep fine = new SweepStep("grpc", 1000, Cell.OK, null, null, 1000, 0, 0, 1000, 1000, 2000, 1500, 3000, 40_000, 60_000, false, null);

    assertNull(s.broken(fine));
    assertEquals("intended p99 50.1 ms > 50ms", s.broken(with(fine, 50_100, 1000)));
    assertEquals("achieved 900 of 1000 calls/s", s.broken(with(fine, 40_000, 900)));
  }

  @Test
  void theKneeIsTheHighestRateBelowTheFirstBrokenOne() {
    Saturation s = Saturation.from(props("saturation", "p99:50ms"));
    SweepStep a = judged(s, 1000, 10_000), b = judged(s, 2000, 70_000), c = judged(s, 1414, 30_000);

    Knee knee = Knee.of("grpc", List.of(a, b, c), "p99");
    assertEquals(1414, knee.sustainableRate());
    assertEquals(2000, knee.brokenRate());
    assertEquals(30_000, knee.intendedAtSlo());
  }

  @Test
  void badSaturationSettingsNameTheExpectedForm() {
    String m = assertThrows(IllegalArgumentException.class, () -> Saturation.from(props("saturation", "99:50ms"))).getMessage();
    assertTrue(m.startsWith("-Dsaturation=99:50ms: expected <percentile>:<limit>"), m);
    m = assertThrows(IllegalArgumentException.class, () -> Saturation.from(props("saturation", "p99:50ms", "rateFactor", "1"))).getMessage();
    assertTrue(m.startsWith("-DrateFactor=1.0: expected a factor above 1"), m);
  }

  private static SweepStep with(SweepStep s, long intendedP99, double achieved) {
    return new SweepStep(s.framework(), s.rate(), s.status(), null, null, s.count(), 0, 0, achieved, s.serviceP50(), s.serviceP99(),
        s.intendedP50(), s.intendedP90(), intendedP99, s.intendedP999(), false, null);
  }

  private static SweepStep judged(Saturation s, int rate, long intendedP99) {
    SweepStep step = new SweepStep("grpc", rate, Cell.OK, null, null, rate, 0, 0, rate, 1000, 2000, 1000, 2000, intendedP99, intendedP99, false, null);
    return step.judged(s.broken(step));
  }
}
