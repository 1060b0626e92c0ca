package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;

import benchmark.Injectors;
import benchmark.RateSettings;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import protocols.core.Deadlines;
import protocols.core.Durations;
import protocols.core.IntendedSend;
import protocols.core.report.RunEnd;

/**
 * Rate mode: the steps of {@code -Drate(s)} as a schedule of slots, called by paced users (a pool that
 * each take the next slot, wait for it and call) or, with {@code -Dpacing=open}, by Gatling's open model
 * (one user per call, started by {@code rampUsersPerSec}/{@code constantUsersPerSec}). Each call carries
 * its intended send time ({@link IntendedSend}), the n-th call's slot of the schedule, so the record
 * measures it from when it was due: a late injector or a stalled server cannot hide (no coordinated
 * omission). Open is the default: measured side by side at 4,000 calls/s, paced users with a pool sized
 * to cover the timeout sent 540-24,000 of 40,000 calls late (a pool of tens of thousands of pausing
 * users does not wake on time) and saved no CPU per call (BENCHMARKS.md, "Open model or paced users").
 */
public final class RateSteps {

  private static final String ORDINAL = "rateSlot";
  private static final String NO_SLOT_LEFT = "rateNoSlotLeft";

  private final RateSettings rates;
  private final RateSettings whole;
  private final Injectors injectors;
  private final AtomicLong calls = new AtomicLong();
  private volatile long startNanos;
  private volatile String scenarioName;
  private volatile String simulation;
  private volatile long warmupEndNanos = Long.MIN_VALUE;

  public RateSteps(RateSettings rates) {
    this(rates, Injectors.fromSystemProperties());
  }

  /** With {@code -Dinjectors=N -Dinjector=i}: this injector's share of every rate, from {@code -DstartAt} when set. */
  public RateSteps(RateSettings rates, Injectors injectors) {
    if (rates.hold().isZero()) {
      throw new IllegalArgumentException("-Dhold=0: expected a positive duration, for example 25s");
    }
    this.whole = rates;
    this.rates = rates.sharedBy(injectors);
    this.injectors = injectors;
  }

  /** The schedule starts with its first user, when Gatling's injection starts (as the staircase's clock). */
  private synchronized long start() {
    if (startNanos == 0) {
      long nowMillis = System.currentTimeMillis();
      // with -DstartAt, every injector's schedule starts at that instant, however late its first user came
      long now = System.nanoTime() - (injectors.startAt() == null ? 0 : (nowMillis - injectors.startAt().toEpochMilli()) * 1_000_000);
      nowMillis = injectors.startAt() == null ? nowMillis : injectors.startAt().toEpochMilli();
      warmupEndNanos = rates.warmup().isZero() ? Long.MIN_VALUE : now + rates.ramp().plus(rates.warmup()).toNanos();
      for (RateSettings.Step step : rates.steps()) {
        RunEnd.level(step.rate() + " calls/s" + (injectors.alone() ? "" : " (" + injectors.shareOfRate(step.rate()) + " here)"),
            nowMillis + step.fromNanos() / 1_000_000, nowMillis + step.toNanos() / 1_000_000);
      }
      RunEnd.run(describe(nowMillis));
      startNanos = now;
    }
    return startNanos;
  }

  /**
   * The scenario: a pool of users that each take the next free slot, wait for it and call, again and
   * again; or, with {@code -Dpacing=open}, one user per call at its slot. {@code timeout} (a call's,
   * when it sets none) sizes the pool.
   */
  public PopulationBuilder population(String scenarioName, ChainBuilder call, Duration timeout) {
    this.scenarioName = scenarioName;
    this.simulation = Staircase.simulationClass();
    String pacing = pacing();
    if (pacing.equals("paced")) {
      int pool = pool(timeout);
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

  /**
   * {@code -Dpool}, or enough users that a stall as long as the timeout (the longest a reply can take)
   * still finds one free for every slot: then a paced send is late only when the injector is.
   */
  private int pool(Duration timeout) {
    String given = System.getProperty("pool");
    if (given != null && !given.isBlank()) {
      try {
        int pool = Integer.parseInt(given.trim());
        if (pool > 0) {
          return pool;
        }
      } catch (NumberFormatException e) {
        // below
      }
      throw new IllegalArgumentException("-Dpool=" + given + ": expected a positive number of paced users, or none to size it from the rate and the timeout");
    }
    Duration longest = Deadlines.backstop(timeout);
    int pool = rates.pacedPool(longest);
    double rate = injectors.shareOfRate(rates.rates().stream().mapToInt(Integer::intValue).max().orElse(0));
    String capped = pool < RateSettings.MAX_POOL ? "" : String.format(java.util.Locale.ROOT,
        "; capped at %d: a stall longer than %.1f s makes later sends late", pool, pool / rate);
    System.out.printf(java.util.Locale.ROOT, "paced pool: %d users (%.1f calls/s × %s, the longest a reply can take%s)%n",
        pool, rate, Durations.format(longest), capped);
    return pool;
  }

  private static String pacing() {
    return System.getProperty("pacing", "open");
  }

  /** run.json, as the staircase writes it: which part of which load this run was, for exec:java@merge. */
  private Map<String, Object> describe(long startMillis) {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("simulation", simulation);
    run.put("scenario", scenarioName);
    run.put("injector", injectors.index());
    run.put("injectors", injectors.count());
    run.put("startAt", injectors.startAt() == null ? null : injectors.startAt().toString());
    run.put("startMillis", startMillis);
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("rates", whole.rates());
    s.put("ramp", Durations.format(whole.ramp()));
    s.put("hold", Durations.format(whole.hold()));
    s.put("warmup", Durations.format(whole.warmup()));
    s.put("pacing", pacing());
    s.put("pool", System.getProperty("pool", "rate × timeout"));
    run.put("settings", s);
    run.put("shares", whole.rates().stream().map(injectors::shareOfRate).toList());
    run.put("warmupMillis", whole.warmup().toMillis());
    List<Map<String, Object>> levels = new ArrayList<>();
    for (RateSettings.Step step : whole.steps()) {
      levels.add(Map.of("label", step.rate() + " calls/s", "from", startMillis + step.fromNanos() / 1_000_000, "to", startMillis + step.toNanos() / 1_000_000));
    }
    run.put("levels", levels);
    return run;
  }

  private io.gatling.javaapi.core.Session nextSlot(io.gatling.javaapi.core.Session session) {
    long t0 = startNanos != 0 ? startNanos : start();
    long n = calls.getAndIncrement();
    long intended = t0 + rates.offsetNanos(n);
    return Staircase.inPhase(session.set(ORDINAL, n).set(IntendedSend.ATTRIBUTE, intended), intended < warmupEndNanos);
  }

  private OpenInjectionStep[] steps() {
    List<OpenInjectionStep> steps = new ArrayList<>();
    if (injectors.startAt() != null) {
      steps.add(nothingFor(Duration.ofMillis(Math.max(0, injectors.startAt().toEpochMilli() - System.currentTimeMillis()))));
    }
    for (RateSettings.Segment s : rates.segments()) {
      steps.add(s.from() == s.to()
          ? constantUsersPerSec(s.from()).during(s.duration())
          : rampUsersPerSec(s.from()).to(s.to()).during(s.duration()));
    }
    return steps.toArray(OpenInjectionStep[]::new);
  }
}
