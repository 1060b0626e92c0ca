package protocols.core;

import io.gatling.commons.stats.Status;
import io.gatling.core.session.Block;
import io.gatling.core.session.GroupBlock;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.ArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * The responses of an event loop, held a few milliseconds and handed to Gatling's stats together.
 *
 * <p>Gatling's stats engine posts every response to each data writer, actors on a pool of their own: a
 * response posted to an idle writer wakes a pool thread. Posted one by one between the sends of the next
 * calls, nearly every response found its writer idle again (0.4–1.4 wake-ups per call, measured in
 * bench/overhead.sh's /proc table). Posted at the end of each loop turn, a writer still woke for every
 * turn's few responses (with a connection per user, about ten: 6,000 wake-ups a second at 23k calls/s).
 * So a loop holds its responses for {@code -Dgatlingrpc.statsHold} (5 ms by default) and posts them
 * together, at most {@link #MAX_HELD} at a time.
 *
 * <p>Users do not wait for that: the users a turn's responses let go on run at the end of the turn (a
 * call answered at once does not nest the user's next call in its own stack). What keeps every response
 * in Gatling's stats is the user's end: a user's exit posts its loop's held responses before Gatling
 * counts the user out ({@link RpcComponents#onExit()}), so when the last user ends, every response is in
 * the stats. Only a run stopped from outside (Gatling's {@code maxDuration}) loses the responses of its
 * last few milliseconds, as it loses the calls still in flight.
 *
 * <p>{@code -Dgatlingrpc.statsHold=0} posts a turn's responses at the end of the turn, before its users go
 * on (the behaviour until 2026-12-03); {@code -Dgatlingrpc.batchStats=false} posts each response at once.
 */
final class ResponseBatch {

  private static final Logger LOG = LoggerFactory.getLogger(ResponseBatch.class);

  static final boolean ENABLED = !"false".equals(System.getProperty("gatlingrpc.batchStats"));

  static final long HOLD_NANOS =
      Durations.parse(System.getProperty("gatlingrpc.statsHold", "5ms"), "-Dgatlingrpc.statsHold").toNanos();

  /** Posted at once beyond this, whatever the hold: a writer drains them in one go. */
  static final int MAX_HELD = 4096;

  private static final FastThreadLocal<ResponseBatch> ON_THIS_LOOP =
      new FastThreadLocal<>() {
        @Override
        protected ResponseBatch initialValue() {
          return new ResponseBatch();
        }
      };

  /**
   * What a response posts, read from its session when it is logged: posted up to the hold later, the
   * session's memory is no longer in the cache, and reading it then took 4 % of the injector's CPU.
   */
  private record Response(
      StatsEngine stats,
      String scenario,
      scala.collection.immutable.List<String> groups,
      String name,
      long start,
      long end,
      Status status,
      String code,
      String message) {

    void post() {
      stats.logResponse(scenario, groups, name, start, end, status, Option.apply(code), Option.apply(message));
    }
  }

  /**
   * {@code session.groups()} without its Scala {@code collectFirst}, which allocated a partial function
   * per call and took 3 % of the injector's CPU at 1000 users: the innermost group's names, or none.
   */
  @SuppressWarnings("unchecked")
  static scala.collection.immutable.List<String> groupsOf(Session session) {
    scala.collection.immutable.List<Block> blocks = session.blockStack();
    while (!blocks.isEmpty()) {
      if (blocks.head() instanceof GroupBlock group) {
        return group.groups();
      }
      blocks = (scala.collection.immutable.List<Block>) blocks.tail();
    }
    return NO_GROUPS;
  }

  @SuppressWarnings("unchecked")
  private static final scala.collection.immutable.List<String> NO_GROUPS =
      (scala.collection.immutable.List<String>) (Object) scala.collection.immutable.Nil$.MODULE$;

  private ArrayList<Response> held = new ArrayList<>();
  private ArrayList<Runnable> goOn = new ArrayList<>();
  /** The lists of the turn before, emptied, taken again by the next (a run never nests in another). */
  private ArrayList<Response> spareHeld = new ArrayList<>();
  private ArrayList<Runnable> spareGoOn = new ArrayList<>();
  private boolean turnEndScheduled;
  private boolean postScheduled;
  private final Runnable endTurn = this::endTurn;
  private final Runnable scheduledPost = this::scheduledPost;

  /**
   * Logs a response under {@code groups} ({@link #groupsOf} its session): held on the user's loop
   * (posted at once when not on that loop).
   */
  static void log(
      StatsEngine stats,
      Session session,
      scala.collection.immutable.List<String> groups,
      String name,
      long start,
      long end,
      Status status,
      String code,
      String message) {
    Response response = new Response(stats, session.scenario(), groups, name, start, end, status, code, message);
    EventLoop loop = session.eventLoop();
    if (!ENABLED || !loop.inEventLoop()) {
      response.post();
      return;
    }
    ON_THIS_LOOP.get().hold(loop, response);
  }

  /** Runs {@code next} at the end of this turn when the turn logged responses; at once when there are none. */
  static void then(Session session, Runnable next) {
    EventLoop loop = session.eventLoop();
    if (ENABLED && loop.inEventLoop()) {
      ResponseBatch batch = ON_THIS_LOOP.get();
      if (batch.turnEndScheduled) {
        batch.goOn.add(next);
        return;
      }
    }
    next.run();
  }

  /**
   * Posts the responses held on {@code session}'s loop, when called on it: a user's exit does, so that
   * its responses are in the stats before Gatling counts it out.
   */
  static void postBeforeExit(Session session) {
    if (ENABLED && session.eventLoop().inEventLoop()) {
      ON_THIS_LOOP.get().postHeld();
    }
  }

  private void hold(EventLoop loop, Response response) {
    if (!turnEndScheduled) {
      if (!submit(loop, endTurn, 0)) {
        response.post(); // the loop is shutting down: the simulation is over
        return;
      }
      turnEndScheduled = true;
    }
    held.add(response);
    if (HOLD_NANOS == 0) {
      return; // posted at the end of the turn
    }
    if (held.size() >= MAX_HELD) {
      postHeld();
    } else if (!postScheduled) {
      if (submit(loop, scheduledPost, HOLD_NANOS)) {
        postScheduled = true;
      } else {
        postHeld();
      }
    }
  }

  private static boolean submit(EventLoop loop, Runnable task, long delayNanos) {
    if (loop.isShuttingDown()) {
      return false;
    }
    try {
      if (delayNanos == 0) {
        loop.execute(task);
      } else {
        loop.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
      }
      return true;
    } catch (RejectedExecutionException e) {
      return false;
    }
  }

  private void endTurn() {
    turnEndScheduled = false;
    if (HOLD_NANOS == 0) {
      postHeld();
    }
    // what runs now may log again: that goes into the next turn's list
    ArrayList<Runnable> going = goOn;
    goOn = spareGoOn;
    for (Runnable next : going) {
      try {
        next.run();
      } catch (RuntimeException | LinkageError e) {
        LOG.error("a virtual user's next action crashed after its response was logged", e);
      }
    }
    going.clear();
    spareGoOn = going;
  }

  private void scheduledPost() {
    postScheduled = false;
    postHeld(); // may find nothing: an exit or a full batch posted them first
  }

  private void postHeld() {
    if (held.isEmpty()) {
      return;
    }
    ArrayList<Response> posting = held;
    held = spareHeld;
    for (Response response : posting) {
      response.post();
    }
    posting.clear();
    spareHeld = posting;
  }

  /** Reads the switches now, so that a malformed one fails the simulation's start, not its calls. */
  static void checkSettings() {}
}
