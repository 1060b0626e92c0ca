package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;

import benchmark.RateSettings;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
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

  /** The scenario: each user makes {@code call} once, at its slot of the schedule. */
  public PopulationBuilder population(String scenarioName, ChainBuilder call) {
    return scenario(scenarioName)
        .exec(
            session -> {
              long t0 = startNanos != 0 ? startNanos : start();
              long intended = t0 + rates.offsetNanos(calls.getAndIncrement());
              return session
                  .set(IntendedSend.ATTRIBUTE, intended)
                  .set(Staircase.PHASE, intended < warmupEndNanos ? "warm-up " : "");
            })
        .exec(call)
        .injectOpen(steps());
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
