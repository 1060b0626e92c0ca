package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;

import protocols.core.Durations;
import benchmark.Injectors;
import benchmark.LoadSettings;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ClosedInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import protocols.core.report.RunEnd;

/**
 * The seed benchmark's load, shared by every framework's simulation: a closed model (a fixed number of
 * concurrent users, each calling again as soon as its reply arrives), stepping through {@code -Dlevels}
 * with {@code rampConcurrentUsers} between levels and {@code constantConcurrentUsers} at each level.
 *
 * <p>Each virtual user calls in a loop for at most one hold period (a user of the first level, through
 * its warm-up as well), then ends and is replaced; so concurrency can step down as well as up, and
 * every user stops when the last level ends.
 *
 * <p>With {@code -Dwarmup}, the first level starts with a warm-up whose calls are named {@code
 * "warm-up <name>"}: name requests with {@link #named(String)} and the warm-up stays out of the
 * figures of the measured requests, in Gatling's report and in the microsecond record alike.
 *
 * <p>With {@code -Dinjectors=N -Dinjector=i} ({@link Injectors}) it runs injector i's share of every
 * level, from {@code -DstartAt} when set; the run folder's run.json says which part this was, for
 * {@code exec:java@merge}.
 */
public final class Staircase {

    private static final String LIFETIME = "staircaseLifetime";
  /** When the user's lifetime ends and when its warm-up part ends (epoch ms, Long). */
  private static final String END = "staircaseEnd";
  private static final String WARMUP_END = "staircaseWarmupEnd";
  /**
   * Users started past the end idle this long rather than end at once and be replaced at once,
   * thousands of times, until Gatling's injection stops.
   */
  private static final long IDLE_AT_LEAST_MILLIS = 100;

  private final LoadSettings settings;
  private final Injectors injectors;
  /** How long before -DstartAt the injection was built: Gatling's first level lasts that much longer. */
  private final long waitMillis;
  private volatile long endMillis = Long.MAX_VALUE;
  private volatile long warmupEndMillis = Long.MIN_VALUE;
  private boolean started;
  private volatile String scenarioName;
  private volatile String simulation;

  public Staircase(LoadSettings settings) {
    this(settings, Injectors.fromSystemProperties());
  }

  public Staircase(LoadSettings settings, Injectors injectors) {
    if (settings.hold().isZero()) {
      throw new IllegalArgumentException("-Dhold=0: expected a positive duration, for example 25s");
    }
    this.settings = settings;
    this.injectors = injectors;
    this.waitMillis = injectors.startAt() == null ? 0 : Math.max(0, injectors.startAt().toEpochMilli() - System.currentTimeMillis());
  }

  /**
   * Starts the staircase's clock, once: when its first user starts, which is when Gatling's injection
   * starts. Not in {@code before()}: protocols are built after it (a Dubbo consumer takes seconds),
   * and that time would be cut from the first level.
   */
  public synchronized void start() {
    // synchronized, not a compare-and-set: a user of the other event loop that lost the race returned
    // before the winner set the times, saw no warm-up and no end, and made measured calls from the
    // start (a run's "Say" then spanned 55 s, its throughput a fifth of the true one)
    if (started) {
      return;
    }
    started = true;
    // with -DstartAt, every injector's clock starts at that instant, whenever its first user came
    long now = injectors.startAt() != null ? injectors.startAt().toEpochMilli() : System.currentTimeMillis();
    long late = System.currentTimeMillis() - now - settings.ramp().toMillis();
    if (injectors.startAt() != null && late > 1000) {
      System.err.println("gatling-rpc: " + injectors + ": this injector's first user came " + late / 1000.0
          + " s after -DstartAt (and its ramp): its first level is that much shorter; start the injectors earlier");
    }
    // the ramp to the first level belongs to the warm-up, when there is one
    warmupEndMillis =
        settings.warmup().isZero() ? Long.MIN_VALUE : now + settings.ramp().plus(settings.warmup()).toMillis();
    endMillis = now + settings.totalDuration().toMillis();
    declareLevels(now);
  }

  /** Each level's hold window (its warm-up and the ramps left out), for the per-level cut of rpc-report.html. */
  private void declareLevels(long startMillis) {
    List<Map<String, Object>> levels = new ArrayList<>();
    long t = startMillis;
    boolean first = true;
    for (int level : settings.levels()) {
      t += settings.ramp().toMillis();
      long from = first ? t + settings.warmup().toMillis() : t;
      t = from + settings.hold().toMillis();
      RunEnd.level(level + " users" + (injectors.alone() ? "" : " (" + injectors.share(level) + " here)"), from, t);
      levels.add(Map.of("label", level + " users", "from", from, "to", t));
      first = false;
    }
    RunEnd.run(describe(startMillis, levels));
  }

  /** run.json: which part of which load this run was, so that the parts of one load can be merged. */
  private Map<String, Object> describe(long startMillis, List<Map<String, Object>> levels) {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("simulation", simulation);
    run.put("scenario", scenarioName);
    run.put("injector", injectors.index());
    run.put("injectors", injectors.count());
    run.put("startAt", injectors.startAt() == null ? null : injectors.startAt().toString());
    run.put("startMillis", startMillis);
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("levels", settings.levels());
    s.put("ramp", Durations.format(settings.ramp()));
    s.put("hold", Durations.format(settings.hold()));
    s.put("warmup", Durations.format(settings.warmup()));
    s.put("connections", settings.connections().toString());
    s.put("serviceTime", Durations.format(settings.serviceTime()));
    String rate = System.getProperty("rate"); // the rate mode's, when set: runs of different rates do not merge
    if (rate != null && !rate.isBlank()) {
      s.put("rate", rate.trim());
    }
    run.put("settings", s);
    run.put("shares", settings.levels().stream().map(injectors::share).toList());
    run.put("warmupMillis", settings.warmup().toMillis());
    run.put("levels", levels);
    return run;
  }

  /**
   * A request name that carries the warm-up prefix while the warm-up lasts. It is one attribute that
   * holds the whole name, set with the phase ({@link #inPhase}): Gatling resolves {@code "#{attribute}"}
   * to the very String it holds, whose hash is computed once, where {@code "#{phase}Say"} built a new
   * String per call that Gatling's writers and the µs record each hashed again (about 2 % of the
   * injector's CPU at 1000 users).
   */
  public static String named(String requestName) {
    return "#{" + NAMES.computeIfAbsent(requestName, n -> new PhaseNames("staircaseName" + NAMES.size(), n)).attribute() + "}";
  }

  /** The names {@link #named} gave out, with the attribute each is read from and its two spellings. */
  private static final Map<String, PhaseNames> NAMES = new java.util.concurrent.ConcurrentHashMap<>();

  private record PhaseNames(String attribute, String measured, String warmUp) {
    PhaseNames(String attribute, String name) {
      this(attribute, name, "warm-up " + name);
    }
  }

  /** The session in the warm-up or the measured phase: every {@link #named} name spelled for it. Also used by {@link RateSteps}. */
  static io.gatling.javaapi.core.Session inPhase(io.gatling.javaapi.core.Session session, boolean warmUp) {
    io.gatling.javaapi.core.Session s = session;
    for (PhaseNames names : NAMES.values()) {
      s = s.set(names.attribute(), warmUp ? names.warmUp() : names.measured());
    }
    return s;
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
    this.scenarioName = scenarioName;
    this.simulation = simulationClass();
    ScenarioBuilder scenario = scenario(scenarioName);
    if (injectors.startAt() != null) {
      // Gatling's clock starts when this JVM is ready; the schedule starts at -DstartAt on every injector
      long firstLevel = injectors.startAt().toEpochMilli() + settings.ramp().toMillis();
      scenario = scenario.pause(session -> Duration.ofMillis(Math.max(0, firstLevel - System.currentTimeMillis())));
    }
    return scenario
        .exec(
            session -> {
              start();
              long now = System.currentTimeMillis();
              long lifetime = userLifetimeMillis();
              long warmup = now < warmupEndMillis ? Math.min(lifetime, warmupEndMillis - now) : 0; // no warm-up: MIN_VALUE
              return inPhase(
                  session
                      .set(LIFETIME, Duration.ofMillis(lifetime))
                      .set(END, now + lifetime)
                      .set(WARMUP_END, now + warmup),
                  warmup > 0);
            })
        .doIfOrElse(session -> !session.<Duration>get(LIFETIME).isZero())
        .then(
            // a loop for the warm-up, one for the rest: the phase is set once per user, not by an action
            // before every call, which would be in every Gatling figure of bench/ and in no user's scenario.
            // asLongAs the clock is short of an end, not during(a duration): a loop's condition is evaluated
            // before every call, and during's reads its start under "timestamp." + its name, a String built
            // and hashed each time; here one attribute read (Session.get, not getLong, which converts)
            doIf(session -> System.currentTimeMillis() < session.<Long>get(WARMUP_END))
                .then(
                    asLongAs(session -> System.currentTimeMillis() < session.<Long>get(WARMUP_END), "warm-up", cutLastIteration)
                        .on(call)
                        .exec(session -> inPhase(session, false)))
                .doIf(session -> System.currentTimeMillis() < session.<Long>get(END))
                .then(asLongAs(session -> System.currentTimeMillis() < session.<Long>get(END), "during", cutLastIteration).on(call)))
        .orElse(pause(session -> Duration.ofMillis(Math.max(IDLE_AT_LEAST_MILLIS, endMillis - System.currentTimeMillis()))))
        .injectClosed(steps());
  }

  /**
   * One hold period (and what is left of the warm-up, for a user started before it ends), cut at the end
   * of the run; a user that would have less than a second left (or less
   * than a hold, when holds are shorter) makes no call at all and idles to the end: users with lifetimes
   * of a few milliseconds would each open a connection for one call in the last moments of the run, and
   * users ending at once would be replaced at once, again and again.
   */
  private long userLifetimeMillis() {
    long now = System.currentTimeMillis();
    long left = Math.max(0, endMillis - now);
    long hold = settings.hold().toMillis();
    // a user of the first level lives through its warm-up too: else they would all end, and their
    // connections be opened again, in the middle of its measured hold
    long lifetime = now < warmupEndMillis ? hold + (warmupEndMillis - now) : hold;
    return left < Math.min(hold, 1000) ? 0 : Math.min(lifetime, left);
  }

  /** The outermost simulation constructor on the stack: the concrete simulation building this staircase. */
  static String simulationClass() {
    return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
        .walk(frames -> frames.map(StackWalker.StackFrame::getDeclaringClass)
            .filter(io.gatling.javaapi.core.Simulation.class::isAssignableFrom)
            .reduce((inner, outer) -> outer))
        .map(Class::getName)
        .orElse(null);
  }

  private ClosedInjectionStep[] steps() {
    List<ClosedInjectionStep> steps = new ArrayList<>();
    int previous = 0;
    boolean first = true;
    for (int users : settings.levels()) {
      int level = injectors.share(users);
      // with -DstartAt, the first level's users wait for it (and its ramp) all at once: a closed step of
      // 0 users would end the injection
      boolean waiting = first && injectors.startAt() != null;
      if (!settings.ramp().isZero() && !waiting) {
        steps.add(rampConcurrentUsers(previous).to(level).during(settings.ramp()));
      }
      Duration hold = first ? settings.hold().plus(settings.warmup()) : settings.hold();
      if (waiting) {
        hold = hold.plusMillis(waitMillis).plus(settings.ramp());
      }
      steps.add(constantConcurrentUsers(level).during(hold));
      previous = level;
      first = false;
    }
    return steps.toArray(ClosedInjectionStep[]::new);
  }
}
