package protocols.core;

import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.action.Action;
import io.gatling.core.check.Check;
import io.gatling.core.check.Check$;
import io.gatling.core.session.Session;
import io.gatling.core.structure.ScenarioContext;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import protocols.core.check.JsonView;
import protocols.core.check.RpcChecks;
import scala.Function1;
import scala.Option;
import scala.Tuple2;

/**
 * The one Gatling action behind every RPC request of every framework. For each virtual user that
 * reaches it: resolve the request name, build the payload, send it through the framework's {@link
 * RpcCall} without blocking, and, back on the user's event loop, run the checks, log exactly one
 * response and pass the session on.
 */
final class RpcAction<P extends RpcProtocol, C, Req, Res> extends BridgeAction {

  private final String nameTemplate;
  private final Function1<Session, Validation<String>> requestName;
  private final Function<io.gatling.javaapi.core.Session, Req> payload;
  private final RpcCall<C, Req, Res> call;
  private final FailureDescriber describer;
  private final scala.collection.immutable.List<Check<CallResult>> checks;
  private final boolean checksStatus;
  private final Duration timeout;
  private final RpcComponents<P, C> components;

  RpcAction(
      RpcRequestBuilder.Common<Req> request,
      RpcCall<C, Req, Res> call,
      FailureDescriber describer,
      JsonView jsonView,
      RpcComponents<P, C> components,
      ScenarioContext ctx,
      Action next) {
    super("rpc:" + request.nameTemplate(), ctx, next);
    this.nameTemplate = request.nameTemplate();
    this.requestName = request.name();
    this.payload = request.payload();
    this.call = call;
    this.describer = describer;
    this.checks = RpcChecks.toScala(request.checks(), jsonView);
    this.checksStatus = RpcChecks.checksStatus(request.checks());
    this.timeout =
        request.timeout() != null ? request.timeout() : components.protocol().defaultTimeout();
    this.components = components;
  }

  @Override
  public void execute(Session session) {
    Validation<String> resolved = requestName.apply(session);
    if (((Object) resolved) instanceof Failure failure) {
      statsEngine.logRequestCrash(
          session.scenario(),
          session.groups(),
          nameTemplate,
          "request name could not be resolved: " + failure.message());
      proceed(session.markAsFailed());
      return;
    }
    String name = ((Success<String>) resolved).value();
    if (throttled()) {
      throttle(session, () -> send(name, session));
    } else {
      send(name, session);
    }
  }

  private void send(String name, Session session) {
    io.gatling.javaapi.core.Session javaSession = new io.gatling.javaapi.core.Session(session);
    scala.collection.immutable.List<String> groups = ResponseBatch.groupsOf(session);
    Req request;
    try {
      request = payload.apply(javaSession);
    } catch (RuntimeException e) {
      long now = clock.nowMillis();
      String message = "building the request failed: " + text(e);
      latencies.recordUnsent(name, message);
      fail(session, groups, name, now, now, "PAYLOAD", message);
      return;
    }
    long intendedNanos = IntendedSend.of(javaSession);
    long start = clock.nowMillis();
    long sentNanos = System.nanoTime();
    CompletableFuture<Res> future;
    Session sending;
    try {
      C client = components.clientFor(session);
      sending = components.holding(session, client);
      future = call.send(client, request, new CallContext(javaSession, timeout));
      if (future == null) {
        throw new IllegalStateException("the framework adapter returned no future");
      }
    } catch (Exception | LinkageError e) {
      CallFailure failure = describe(e);
      latencies.recordFailedCall(name, intendedNanos, sentNanos, System.nanoTime(), failure.message());
      fail(session, groups, name, start, clock.nowMillis(), failure.status(), failure.message());
      return;
    }
    Deadlines.bound(future, timeout)
        .whenComplete(
            (response, error) -> {
              long end = clock.nowMillis();
              long receivedNanos = System.nanoTime();
              if (sending.eventLoop().inEventLoop()) { // most replies: no task to allocate
                complete(sending, groups, name, start, end, intendedNanos, sentNanos, receivedNanos, response, error);
              } else {
                later(sending, () -> complete(sending, groups, name, start, end, intendedNanos, sentNanos, receivedNanos, response, error));
              }
            });
  }

  private void complete(
      Session session,
      scala.collection.immutable.List<String> groups,
      String name,
      long start,
      long end,
      long intendedNanos,
      long sentNanos,
      long receivedNanos,
      Res response,
      Throwable error) {
    CallResult result =
        error == null ? CallResult.success(response) : CallResult.failure(describe(error));
    if (result.failed() && !checksStatus) {
      latencies.recordFailedCall(name, intendedNanos, sentNanos, receivedNanos, result.errorMessage());
      fail(session, groups, name, start, end, result.status(), result.errorMessage());
      return;
    }
    Tuple2<Session, Option<Failure>> checked = Check$.MODULE$.check(result, session, checks);
    Session afterChecks = checked._1();
    if (checked._2().isDefined()) {
      String message = checked._2().get().message();
      latencies.recordFailedCall(name, intendedNanos, sentNanos, receivedNanos, message);
      fail(afterChecks, groups, name, start, end, result.status(), message);
    } else {
      latencies.recordOk(name, intendedNanos, sentNanos, receivedNanos);
      log(afterChecks, groups, name, start, end, OK$.MODULE$, result.status(), null);
      proceed(timedInGroups(afterChecks, groups, start, end));
    }
  }

  private void fail(
      Session session,
      scala.collection.immutable.List<String> groups,
      String name,
      long start,
      long end,
      String status,
      String message) {
    Runnable ko =
        () -> {
          log(session, groups, name, start, end, KO$.MODULE$, status, message);
          proceed(timedInGroups(session.markAsFailed(), groups, start, end));
        };
    onEventLoop(session, ko);
  }

  /**
   * The session with the call's time added to its groups' timings; as it is outside any group. Gatling's
   * {@code logGroupRequestTimings} copies the block stack whatever it holds (a loop's block is enough),
   * and reading it when the reply comes, it is out of the cache (2 % of the injector's CPU at 1000 users).
   */
  private static Session timedInGroups(Session session, scala.collection.immutable.List<String> groups, long start, long end) {
    return groups.isEmpty() ? session : session.logGroupRequestTimings(start, end);
  }

  private CallFailure describe(Throwable error) {
    return describe(describer, error);
  }
}
