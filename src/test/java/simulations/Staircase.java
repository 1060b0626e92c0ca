package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;

import benchmark.LoadSettings;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ClosedInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import protocols.core.report.RunEnd;

/**
 * The seed benchmark's load, shared by every framework's simulation: a closed model (a fixed number of
 * concurrent users, each calling again as soon as its reply arrives), stepping through {@code -Dlevels}
 * with {@code rampConcurrentUsers} between levels and {@code constantConcurrentUsers} at each level.
 *
 * <p>Each virtual user calls in a loop for at most one hold period, then ends and is replaced; so
 * concurrency can step down as well as up, and every user stops when the last level ends.
 *
 * <p>With {@code -Dwarmup}, the first level starts with a warm-up whose calls are named {@code
 * "warm-up <name>"}: name requests with {@link #named(String)} and the warm-up stays out of the
 * figures of the measured requests, in Gatling's report and in the microsecond record alike.
 */
public final class Staircase {

  /** Also set by {@link RateSteps}: the prefix of {@link #named} names. */
  static final String PHASE = "staircasePhase";
  private static final String LIFETIME = "staircaseLifetime";
  /**
   * Users started past the end idle this long rather than end at once and be replaced at once,
   * thousands of times, until Gatling's injection stops.
   */
  private static final long IDLE_AT_LEAST_MILLIS = 100;

  private final LoadSettings settings;
  private volatile long endMillis = Long.MAX_VALUE;
  private volatile long warmupEndMillis = Long.MIN_VALUE;
  private final AtomicBoolean started = new AtomicBoolean();

  public Staircase(LoadSettings settings) {
    if (settings.hold().isZero()) {
      throw new IllegalArgumentException("-Dhold=0: expected a positive duration, for example 25s");
    }
    this.settings = settings;
  }

  /**
   * Starts the staircase's clock, once: when its first user starts, which is when Gatling's injection
   * starts. Not in {@code before()}: protocols are built after it (a Dubbo consumer takes seconds),
   * and that time would be cut from the first level.
   */
  public void start() {
    if (!started.compareAndSet(false, true)) {
      return;
    }
    long now = System.currentTimeMillis();
    // the ramp to the first level belongs to the warm-up, when there is one
    warmupEndMillis =
        settings.warmup().isZero() ? Long.MIN_VALUE : now + settings.ramp().plus(settings.warmup()).toMillis();
    endMillis = now + settings.totalDuration().toMillis();
    declareLevels(now);
  }

  /** Each level's hold window (its warm-up and the ramps left out), for the per-level cut of rpc-report.html. */
  private void declareLevels(long startMillis) {
    long t = startMillis;
    boolean first = true;
    for (int level : settings.levels()) {
      t += settings.ramp().toMillis();
      long from = first ? t + settings.warmup().toMillis() : t;
      t = from + settings.hold().toMillis();
      RunEnd.level(level + " users", from, t);
      first = false;
    }
  }

  /** A request name that carries the warm-up prefix while the warm-up lasts. */
  public static String named(String requestName) {
    return "#{" + PHASE + "}" + requestName;
  }

  /**
   * The scenario: virtual users repeating {@code call}, injected level by level. A user's lifetime is
   * fixed when it starts: Gatling evaluates a {@code during} duration again at every iteration, and a
   * lifetime computed there from the time left would end each user halfway to the end of the run.
   */
  public PopulationBuilder population(String scenarioName, ChainBuilder call) {
    return population(scenarioName, call, true);
  }

  /**
   * As above; with {@code cutLastIteration} false, a user's last iteration runs to its end instead of being cut
   * when the lifetime is over (Gatling's exitASAP off): what streams need, which a cut would leave open.
   */
  public PopulationBuilder population(String scenarioName, ChainBuilder call, boolean cutLastIteration) {
    return scenario(scenarioName)
        .exec(
            session -> {
              start();
              return session.set(LIFETIME, Duration.ofMillis(userLifetimeMillis()));
            })
        .doIfOrElse(session -> !session.<Duration>get(LIFETIME).isZero())
        .then(
            // evaluated at every iteration: a plain attribute read, the cheapest (Session.getLong converts)
            during(session -> session.<Duration>get(LIFETIME), "during", cutLastIteration)
                .on(
                    exec(session -> session.set(PHASE, System.currentTimeMillis() < warmupEndMillis ? "warm-up " : "")),
                    call))
        .orElse(pause(session -> Duration.ofMillis(Math.max(IDLE_AT_LEAST_MILLIS, endMillis - System.currentTimeMillis()))))
        .injectClosed(steps());
  }

  /**
   * One hold period, cut at the end of the run; a user that would have less than a second left (or less
   * than a hold, when holds are shorter) makes no call at all and idles to the end: users with lifetimes
   * of a few milliseconds would each open a connection for one call in the last moments of the run, and
   * users ending at once would be replaced at once, again and again.
   */
  private long userLifetimeMillis() {
    long left = Math.max(0, endMillis - System.currentTimeMillis());
    long hold = settings.hold().toMillis();
    return left < Math.min(hold, 1000) ? 0 : Math.min(hold, left);
  }

  private ClosedInjectionStep[] steps() {
    List<ClosedInjectionStep> steps = new ArrayList<>();
    int previous = 0;
    boolean first = true;
    for (int level : settings.levels()) {
      if (!settings.ramp().isZero()) {
        steps.add(rampConcurrentUsers(previous).to(level).during(settings.ramp()));
      }
      Duration hold = first ? settings.hold().plus(settings.warmup()) : settings.hold();
      steps.add(constantConcurrentUsers(level).during(hold));
      previous = level;
      first = false;
    }
    return steps.toArray(ClosedInjectionStep[]::new);
  }
}
