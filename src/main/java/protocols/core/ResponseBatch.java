package protocols.core;

import io.gatling.commons.stats.Status;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.FastThreadLocal;
import java.util.ArrayList;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * The responses one event-loop turn completes, handed to Gatling's stats together at the end of the turn.
 *
 * <p>Gatling's stats engine posts every response to each data writer, actors on a pool of their own: a
 * response posted to an idle writer wakes a pool thread. Posted one by one between the sends of the next
 * calls, nearly every response found its writer idle again (0.4–1.4 wake-ups per call, measured in
 * bench/overhead.sh's /proc table); posted back to back, a writer woken by the first drains the rest.
 *
 * <p>A user goes on only after its response was posted: the users that a turn's responses let go on run
 * at the end of the turn, after the posts. So when the last user ends and Gatling stops its stats, every
 * response is already in them. {@code -Dgatlingrpc.batchStats=false} posts each response at once, as before.
 */
final class ResponseBatch implements Runnable {

  private static final Logger LOG = LoggerFactory.getLogger(ResponseBatch.class);

  static final boolean ENABLED = !"false".equals(System.getProperty("gatlingrpc.batchStats"));

  private static final FastThreadLocal<ResponseBatch> ON_THIS_LOOP =
      new FastThreadLocal<>() {
        @Override
        protected ResponseBatch initialValue() {
          return new ResponseBatch();
        }
      };

  private record Response(
      StatsEngine stats,
      Session session,
      String name,
      long start,
      long end,
      Status status,
      String code,
      String message) {

    void post() {
      stats.logResponse(
          session.scenario(), session.groups(), name, start, end, status, Option.apply(code), Option.apply(message));
    }
  }

  private ArrayList<Response> responses = new ArrayList<>();
  private ArrayList<Runnable> goOn = new ArrayList<>();
  /** The lists of the turn before, emptied, taken again by the next (a run never nests in another). */
  private ArrayList<Response> spareResponses = new ArrayList<>();
  private ArrayList<Runnable> spareGoOn = new ArrayList<>();
  private boolean scheduled;

  /** Logs a response at the end of this turn of the user's loop (at once when not on that loop). */
  static void log(
      StatsEngine stats, Session session, String name, long start, long end, Status status, String code, String message) {
    Response response = new Response(stats, session, name, start, end, status, code, message);
    EventLoop loop = session.eventLoop();
    if (!ENABLED || !loop.inEventLoop()) {
      response.post();
      return;
    }
    ResponseBatch batch = ON_THIS_LOOP.get();
    if (batch.schedule(loop)) {
      batch.responses.add(response);
    } else {
      response.post(); // the loop is shutting down: the simulation is over
    }
  }

  /** Runs {@code next} after the responses logged in this turn are posted; at once when there are none. */
  static void then(Session session, Runnable next) {
    EventLoop loop = session.eventLoop();
    if (ENABLED && loop.inEventLoop()) {
      ResponseBatch batch = ON_THIS_LOOP.get();
      if (batch.scheduled) {
        batch.goOn.add(next);
        return;
      }
    }
    next.run();
  }

  private boolean schedule(EventLoop loop) {
    if (scheduled) {
      return true;
    }
    if (loop.isShuttingDown()) {
      return false;
    }
    try {
      loop.execute(this);
    } catch (RejectedExecutionException e) {
      return false;
    }
    scheduled = true;
    return true;
  }

  @Override
  public void run() {
    // what runs now may log again: that goes into a batch of the next turn
    ArrayList<Response> posting = responses;
    ArrayList<Runnable> going = goOn;
    responses = spareResponses;
    goOn = spareGoOn;
    scheduled = false;
    for (Response response : posting) {
      response.post();
    }
    for (Runnable next : going) {
      try {
        next.run();
      } catch (RuntimeException | LinkageError e) {
        LOG.error("a virtual user's next action crashed after its response was logged", e);
      }
    }
    posting.clear();
    going.clear();
    spareResponses = posting;
    spareGoOn = going;
  }
}
