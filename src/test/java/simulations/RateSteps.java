package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;

import benchmark.RateSettings;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import protocols.core.IntendedSend;
import protocols.core.report.RunEnd;

/**
 * Rate mode: Gatling's open model, one call per virtual user, users started by {@code
 * rampUsersPerSec}/{@code constantUsersPerSec} through the steps of {@code -Drate(s)}. Each call carries
 * its intended send time ({@link IntendedSend}), the n-th call's slot of the schedule, so the record
 * measures it from when it was due: a late injector or a stalled server cannot hide (no coordinated
 * omission). The open model sends on time however long earlier calls take, unlike paced users that
 * wait for their previous reply.
 */
public final class RateSteps {

  private static final String ORDINAL = "rateSlot";
  private static final String NO_SLOT_LEFT = "rateNoSlotLeft";

  private final RateSettings rates;
  private final AtomicLong calls = new AtomicLong();
  private volatile long startNanos;
  private volatile long warmupEndNanos = Long.MIN_VALUE;

  public RateSteps(RateSettings rates) {
    if (rates.hold().isZero()) {
      throw new IllegalArgumentException("-Dhold=0: expected a positive duration, for example 25s");
    }
    this.rates = rates;
  }

  /** The schedule starts with its first user, when Gatling's injection starts (as the staircase's clock). */
  private synchronized long start() {
    if (startNanos == 0) {
      long now = System.nanoTime();
      long nowMillis = System.currentTimeMillis();
      warmupEndNanos = rates.warmup().isZero() ? Long.MIN_VALUE : now + rates.ramp().plus(rates.warmup()).toNanos();
      for (RateSettings.Step step : rates.steps()) {
        RunEnd.level(step.rate() + " calls/s", nowMillis + step.fromNanos() / 1_000_000, nowMillis + step.toNanos() / 1_000_000);
      }
      startNanos = now;
    }
    return startNanos;
  }

  /**
   * The scenario: each user makes {@code call} once, at its slot of the schedule; or, with {@code
   * -Dpacing=paced}, {@code -Dpool} users each take the next free slot, wait for it and call, again
   * and again (kept to compare the injector's cost per call: a stalled reply holds a paced user, so
   * its next sends go late).
   */
  public PopulationBuilder population(String scenarioName, ChainBuilder call) {
    String pacing = System.getProperty("pacing", "open");
    if (pacing.equals("paced")) {
      int pool = Integer.getInteger("pool", 100);
      long total = rates.totalCalls();
      return scenario(scenarioName)
          .asLongAs(session -> !session.contains(NO_SLOT_LEFT))
          .on(exec(session -> calls.get() < total ? nextSlot(session) : session.set(NO_SLOT_LEFT, true)),
              doIf(session -> !session.contains(NO_SLOT_LEFT) && session.getLong(ORDINAL) < total)
                  .then(pause(session -> Duration.ofNanos(Math.max(0, session.getLong(IntendedSend.ATTRIBUTE) - System.nanoTime()))),
                      call))
          .injectOpen(atOnceUsers(pool));
    }
    if (!pacing.equals("open")) {
      throw new IllegalArgumentException("-Dpacing=" + pacing + ": expected open (one user per call) or paced (-Dpool users)");
    }
    return scenario(scenarioName).exec(this::nextSlot).exec(call).injectOpen(steps());
  }

  private io.gatling.javaapi.core.Session nextSlot(io.gatling.javaapi.core.Session session) {
    long t0 = startNanos != 0 ? startNanos : start();
    long n = calls.getAndIncrement();
    long intended = t0 + rates.offsetNanos(n);
    return session
        .set(ORDINAL, n)
        .set(IntendedSend.ATTRIBUTE, intended)
        .set(Staircase.PHASE, intended < warmupEndNanos ? "warm-up " : "");
  }

  private OpenInjectionStep[] steps() {
    List<OpenInjectionStep> steps = new ArrayList<>();
    for (RateSettings.Segment s : rates.segments()) {
      steps.add(s.from() == s.to()
          ? constantUsersPerSec(s.from()).during(s.duration())
          : rampUsersPerSec(s.from()).to(s.to()).during(s.duration()));
    }
    return steps.toArray(OpenInjectionStep[]::new);
  }
}
