package protocols.core;

import io.gatling.commons.stats.KO$;
import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.action.Action;
import io.gatling.core.check.Check;
import io.gatling.core.session.Session;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.core.CheckBuilder;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import protocols.core.RpcStreamBuilder.Spec;
import protocols.core.RpcStreamBuilder.Verb;
import protocols.core.check.JsonView;
import protocols.core.check.RpcCheckType;
import protocols.core.check.RpcChecks;
import scala.Option;

/**
 * One verb on one stream ({@code start}, {@code send}, {@code send(...).awaitMessages}, {@code halfClose},
 * {@code awaitMessages}, {@code awaitStreamEnd}, {@code cancel}). The stream itself, an {@link OpenStream}, lives in the user's session between
 * actions and handles what the server sends as it arrives.
 */
final class StreamAction<P extends RpcProtocol, C, Req, Res> extends BridgeAction {

  /** Session attributes holding open streams start with this. */
  static final String KEY_PREFIX = "gatling-rpc.stream.";

  /** The session attribute holding the stream named {@code streamName} (Gatling EL), as one expression. */
  static scala.Function1<Session, Validation<String>> keyExpression(String streamName) {
    return io.gatling.javaapi.core.internal.Expressions.toStringExpression(KEY_PREFIX + streamName);
  }

  private static String streamName(String key) {
    return key.substring(KEY_PREFIX.length());
  }

  final Spec spec;
  private final Verb verb;
  private final Function<io.gatling.javaapi.core.Session, Req> message;
  /** The message when it does not depend on the session, else null. */
  private final Req constant;
  private final RpcStreamBuilder.Await await;
  private final RpcStreamOpener<C, Req, Res> opener;
  final FailureDescriber describer;
  final RpcComponents<P, C> components;
  final scala.collection.immutable.List<Check<CallResult>> messageChecks;
  final scala.collection.immutable.List<Check<CallResult>> closeChecks;
  final boolean checksClose;
  final Duration timeout;

  StreamAction(
      Spec spec,
      Verb verb,
      Function<io.gatling.javaapi.core.Session, Req> message,
      RpcStreamBuilder.Await await,
      RpcStreamOpener<C, Req, Res> opener,
      FailureDescriber describer,
      JsonView jsonView,
      RpcComponents<P, C> components,
      ScenarioContext ctx,
      Action next) {
    super("rpc-stream:" + verb.name().toLowerCase() + (await != null && verb == Verb.SEND ? "-await" : "") + ":" + spec.nameTemplate(), ctx, next);
    this.spec = spec;
    this.verb = verb;
    this.message = message;
    this.constant = message instanceof RpcStreamBuilder.Constant<Req> c ? c.message() : null;
    this.await = await;
    this.opener = opener;
    this.describer = describer;
    this.components = components;
    List<CheckBuilder> onMessages = spec.checks().stream().filter(c -> c.type() != RpcCheckType.STATUS).toList();
    List<CheckBuilder> onClose = spec.checks().stream().filter(c -> c.type() == RpcCheckType.STATUS).toList();
    this.messageChecks = RpcChecks.toScala(onMessages, jsonView);
    this.closeChecks = RpcChecks.toScala(onClose);
    this.checksClose = !onClose.isEmpty();
    this.timeout = spec.timeout() != null ? spec.timeout() : components.protocol().defaultTimeout();
  }

  @Override
  public void execute(Session session) {
    String key = resolve(spec.streamKey(), session, "stream name");
    if (key == null) {
      proceed(session.markAsFailed());
      return;
    }
    OpenStream<Req, Res> stream = find(session, key);
    boolean opens = verb == Verb.START || (verb == Verb.SEND && spec.kind() == StreamKind.SERVER_STREAM);
    // a verb on a stream reports under the name the stream was opened with: no EL per message
    String name = stream != null && !opens ? stream.requestName() : resolve(spec.name(), session, "request name");
    if (name == null) {
      proceed(session.markAsFailed());
      return;
    }
    switch (verb) {
      case START -> start(session, name, key, stream);
      case SEND -> {
        if (throttled()) {
          // each message is one request to throttle(...); the stream is touched on the user's loop only
          throttle(session, () -> later(session, () -> send(session, name, key, stream, opens)));
        } else {
          send(session, name, key, stream, opens);
        }
      }
      case HALF_CLOSE -> halfClose(session, name, key, stream);
      case AWAIT_STREAM_END -> awaitEnd(session, name, key, stream);
      case AWAIT_MESSAGES -> awaitMessages(session, name, key, stream);
      case CANCEL -> cancel(session, name, key, stream);
    }
  }

  private void start(Session session, String name, String key, OpenStream<Req, Res> stream) {
    if (stream != null && !stream.closed()) {
      refuse(session, name, "stream '" + streamName(key) + "' is open already: give a second stream its own .streamName(...)");
      return;
    }
    OpenStream<Req, Res> opened = open(session, name, key);
    if (opened != null) {
      proceed(session.set(key, opened));
    }
  }

  private void send(Session session, String name, String key, OpenStream<Req, Res> stream, boolean opens) {
    if (opens && stream != null && !stream.closed()) {
      refuse(session, name, "stream '" + streamName(key) + "' is open already: a server stream takes one request");
      return;
    }
    if (!opens) {
      if (stream == null) {
        refuse(session, name, neverStarted(key, "send"));
        return;
      }
      if (stream.closed()) {
        refuse(session, name, "send on stream '" + streamName(key) + "', which is closed already (" + stream.closeText() + ")");
        return;
      }
      if (stream.halfClosed()) {
        refuse(session, name, "send after halfClose on stream '" + streamName(key) + "'");
        return;
      }
    }
    Req built = constant;
    if (built == null) {
      try {
        built = message.apply(new io.gatling.javaapi.core.Session(session));
        if (built == null) {
          throw new IllegalArgumentException("the message function returned null");
        }
      } catch (RuntimeException e) {
        refuse(session, name, "building the message failed: " + text(e));
        return;
      }
    }
    Session after = session;
    if (opens) {
      stream = open(session, name, key);
      if (stream == null) {
        return;
      }
      after = session.set(key, stream);
    }
    stream.send(built);
    if (opens) {
      stream.halfClose();
    }
    Session going = after;
    if (await != null) {
      awaitMessages(going, name, stream);
    } else {
      stream.whenReady(() -> proceed(going));
    }
  }

  private void halfClose(Session session, String name, String key, OpenStream<Req, Res> stream) {
    if (stream == null) {
      refuse(session, name, neverStarted(key, "halfClose"));
      return;
    }
    stream.halfClose();
    proceed(session);
  }

  private void awaitEnd(Session session, String name, String key, OpenStream<Req, Res> stream) {
    if (stream == null) {
      refuse(session, name, neverStarted(key, "awaitStreamEnd"));
      return;
    }
    stream.whenEnded(() -> proceed(stream.finish(session)));
  }

  private void awaitMessages(Session session, String name, String key, OpenStream<Req, Res> stream) {
    if (stream == null) {
      refuse(session, name, neverStarted(key, "awaitMessages"));
      return;
    }
    awaitMessages(session, name, stream);
  }

  /** The user goes on once {@code await} is met; a KO timed from here when it is missed. */
  private void awaitMessages(Session session, String name, OpenStream<Req, Res> stream) {
    long fromMillis = clock.nowMillis();
    long fromNanos = System.nanoTime();
    stream.whenMessages(
        await.count(),
        await.timeout(),
        () -> proceed(session),
        why -> {
          latencies.recordFailedCall(name, IntendedSend.NONE, fromNanos, System.nanoTime(), why);
          log(session, ResponseBatch.groupsOf(session), name, fromMillis, clock.nowMillis(), KO$.MODULE$, "STREAM", why);
          proceed(session.markAsFailed());
        });
  }

  private void cancel(Session session, String name, String key, OpenStream<Req, Res> stream) {
    if (stream == null) {
      refuse(session, name, neverStarted(key, "cancel"));
      return;
    }
    stream.cancelByUser();
    proceed(stream.finish(session));
  }

  /** A new stream, or null when it could not be opened (then the KO is logged and the user goes on). */
  private OpenStream<Req, Res> open(Session session, String name, String key) {
    OpenStream<Req, Res> stream =
        new OpenStream<>(this, session, name, streamName(key), key, clock.nowMillis(), System.nanoTime());
    try {
      C client = components.clientFor(session);
      RpcStream<Req> opened = opener.open(client, new CallContext(new io.gatling.javaapi.core.Session(session), timeout), stream);
      if (opened == null) {
        throw new IllegalStateException("the framework adapter returned no stream");
      }
      stream.opened(opened);
      return stream;
    } catch (Exception | LinkageError e) {
      CallFailure failure = describe(describer, e);
      stream.openFailed();
      latencies.recordFailedCall(name, IntendedSend.NONE, stream.startNanos, System.nanoTime(), failure.message());
      log(session, ResponseBatch.groupsOf(session), name, stream.startMillis, clock.nowMillis(), KO$.MODULE$, failure.status(), failure.message());
      proceed(session.markAsFailed());
      return null;
    }
  }

  private static String neverStarted(String key, String verb) {
    return verb + " on stream '" + streamName(key) + "', which was never started: open it first with start() (send(...) on a server stream)";
  }

  /** A misuse of the stream DSL: a KO, untimed, and the user goes on as failed. */
  private void refuse(Session session, String name, String message) {
    long now = clock.nowMillis();
    latencies.recordUnsent(name, message);
    log(session, ResponseBatch.groupsOf(session), name, now, now, KO$.MODULE$, "STREAM", message);
    proceed(session.markAsFailed());
  }

  private String resolve(scala.Function1<Session, Validation<String>> expression, Session session, String what) {
    Validation<String> resolved = expression.apply(session);
    if (((Object) resolved) instanceof Failure failure) {
      statsEngine.logRequestCrash(
          session.scenario(), session.groups(), spec.nameTemplate(), what + " could not be resolved: " + failure.message());
      return null;
    }
    return ((Success<String>) resolved).value();
  }

  @SuppressWarnings("unchecked")
  private OpenStream<Req, Res> find(Session session, String key) {
    Option<Object> value = session.attributes().get(key);
    return value.isDefined() && value.get() instanceof OpenStream<?, ?> stream ? (OpenStream<Req, Res>) stream : null;
  }
}
