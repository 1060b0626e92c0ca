package protocols.core;

import io.gatling.commons.stats.Status;
import io.gatling.commons.util.Clock;
import io.gatling.core.action.Action;
import io.gatling.core.action.BlockExit;
import io.gatling.core.action.BlockExit$;
import io.gatling.core.actor.ActorRef;
import io.gatling.core.controller.throttle.Throttler$Command$ThrottledRequest;
import io.gatling.core.session.Session;
import io.gatling.core.stats.StatsEngine;
import io.gatling.core.structure.ScenarioContext;
import io.netty.channel.EventLoop;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.LoggerFactory;
import scala.Option;
import scala.runtime.BoxedUnit;

/**
 * What every action of the bridge shares: Gatling's action plumbing, logging a response, describing a
 * failure and coming back to the user's event loop.
 *
 * <p>Implements {@link Action} directly: Gatling's Scala traits (ChainableAction...) cannot be
 * implemented from Java.
 */
abstract class BridgeAction implements Action {

  private static final com.typesafe.scalalogging.Logger LOGGER =
      com.typesafe.scalalogging.Logger$.MODULE$.apply(LoggerFactory.getLogger(BridgeAction.class));

  protected final String actionName;
  protected final StatsEngine statsEngine;
  protected final Clock clock;
  protected final Action next;
  protected final LatencyRecord latencies;
  @SuppressWarnings("rawtypes")
  private final Option<ActorRef> throttler;

  BridgeAction(String actionName, ScenarioContext ctx, Action next) {
    this.actionName = actionName;
    this.statsEngine = ctx.coreComponents().statsEngine();
    this.clock = ctx.coreComponents().clock();
    this.next = next;
    this.latencies = LatencyRecord.of(ctx.coreComponents());
    this.throttler = ctx.throttled() ? ctx.coreComponents().throttler().map(ref -> (ActorRef) ref) : Option.empty();
  }

  /** Whether {@code throttle(...)} limits this action's scenario. */
  boolean throttled() {
    return throttler.isDefined();
  }

  /**
   * Runs {@code request} when Gatling's {@code throttle(...)} lets it through, on the throttler's thread;
   * at once when the scenario is not throttled.
   */
  void throttle(Session session, Runnable request) {
    if (throttler.isEmpty()) {
      request.run();
      return;
    }
    @SuppressWarnings("unchecked")
    ActorRef<Object> ref = throttler.get();
    ref.$bang(
        new Throttler$Command$ThrottledRequest(
            session.scenario(),
            () -> {
              request.run();
              return BoxedUnit.UNIT;
            }));
  }

  @Override
  public String name() {
    return actionName;
  }

  @Override
  public com.typesafe.scalalogging.Logger logger() {
    return LOGGER;
  }

  @Override
  public void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(
      com.typesafe.scalalogging.Logger logger) {}

  @Override
  public void $bang(Session session) {
    // honours exitASAP of during(...), tryMax and exitBlockOnFail, as Gatling's own actions do
    Option<BlockExit> exit = BlockExit$.MODULE$.mustExit(session);
    if (exit.isDefined()) {
      exit.get().exitBlock(statsEngine, clock.nowMillis());
      return;
    }
    try {
      Action.super.$bang(session);
    } catch (RuntimeException | LinkageError e) {
      LOGGER.underlying().error("'{}' crashed; the virtual user goes on as failed", actionName, e);
      next.$bang(session.markAsFailed());
    }
  }

  /**
   * Logs a response in Gatling's stats under {@code groups}, {@link ResponseBatch#groupsOf} the session;
   * posted with the others its loop holds ({@link ResponseBatch}). A call's are read when it is sent:
   * read when the reply comes, milliseconds later, the session's block stack is out of the cache (1 % of
   * the injector's CPU at 1000 users, in an async-profiler profile), while Gatling has just read it then.
   */
  void log(
      Session session,
      scala.collection.immutable.List<String> groups,
      String name,
      long start,
      long end,
      Status status,
      String code,
      String message) {
    ResponseBatch.log(statsEngine, session, groups, name, start, end, status, code, message);
  }

  /** Hands the user to the next action, at the end of this loop turn when the turn logged responses. */
  void proceed(Session session) {
    ResponseBatch.then(session, () -> next.$bang(session));
  }

  static CallFailure describe(FailureDescriber describer, Throwable error) {
    Throwable cause = FailureDescriber.unwrap(error);
    if (cause instanceof CallTimeoutException) {
      return new CallFailure("TIMEOUT", cause.getMessage());
    }
    if (cause instanceof ReconnectBackoff.Reconnecting) {
      return new CallFailure(ReconnectBackoff.Reconnecting.STATUS, cause.getMessage());
    }
    try {
      return describer.describe(cause);
    } catch (RuntimeException e) {
      return FailureDescriber.DEFAULT.describe(cause);
    }
  }

  static String text(Throwable e) {
    return FailureDescriber.messageChain(FailureDescriber.unwrap(e));
  }

  /** Gatling expects a user's actions on that user's event loop; callbacks arrive elsewhere. */
  static void onEventLoop(Session session, Runnable task) {
    EventLoop loop = session.eventLoop();
    if (loop.inEventLoop()) {
      task.run();
      return;
    }
    later(session, task);
  }

  /** On the user's event loop, after what runs there now. */
  static void later(Session session, Runnable task) {
    EventLoop loop = session.eventLoop();
    if (loop.isShuttingDown()) {
      return; // the simulation is over; nobody waits for this user any more
    }
    try {
      loop.execute(task);
    } catch (RejectedExecutionException e) {
      // shut down between the check and the call: same as above
    }
  }
}
