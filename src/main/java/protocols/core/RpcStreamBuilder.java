package protocols.core;

import io.gatling.commons.validation.Validation;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.internal.Expressions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import protocols.core.check.JsonView;
import scala.Function1;

/**
 * A stream of any framework: its name, checks, deadline and timing, and the actions that drive it
 * ({@link #start()}, {@link #send}, {@link #halfClose()}, {@link #awaitMessages(int)}, {@link
 * #awaitStreamEnd()}, {@link #cancel()}). Immutable: each setting returns a new builder; each action is an {@link ActionBuilder}
 * for {@code exec(...)}. The actions of one stream find it in the virtual user's session under its
 * {@link #streamName(String) stream name}, so one user can hold several streams at once.
 *
 * @param <B> the framework's own builder type, returned by the settings here
 */
public abstract class RpcStreamBuilder<
    B extends RpcStreamBuilder<B, P, C, Req, Res>, P extends RpcProtocol, C, Req, Res> {

  /**
   * The framework-independent definition of a stream. {@code streamKey}: the session attribute that
   * holds the stream, its stream name behind {@link StreamAction#KEY_PREFIX}, as one expression: each
   * action resolves it once, with no concatenation after.
   */
  public record Spec(
      StreamKind kind,
      String nameTemplate,
      Function1<Session, Validation<String>> name,
      Function1<Session, Validation<String>> streamKey,
      List<CheckBuilder> checks,
      Duration timeout,
      MessageResponseTimePolicy timePolicy) {

    public static Spec named(String requestName, StreamKind kind) {
      Objects.requireNonNull(requestName, "request name");
      return new Spec(
          kind, requestName, Expressions.toStringExpression(requestName), StreamAction.keyExpression(requestName),
          List.of(), null, MessageResponseTimePolicy.FromStreamStart);
    }

    String describe() {
      return kind.dslName() + " \"" + nameTemplate + "\"";
    }
  }

  /** What an action does to its stream. */
  enum Verb {
    START,
    SEND,
    HALF_CLOSE,
    AWAIT_STREAM_END,
    AWAIT_MESSAGES,
    CANCEL
  }

  /** What {@code awaitMessages} waits for: {@code count} more messages, for at most {@code timeout} (null: the stream's deadline). */
  record Await(int count, Duration timeout) {

    static Await of(Spec spec, int count, Duration timeout) {
      if (count < 1) {
        throw new IllegalArgumentException(spec.describe() + ": awaitMessages needs a count of 1 or more, got " + count);
      }
      if (timeout != null && (timeout.isNegative() || timeout.isZero())) {
        throw new IllegalArgumentException(spec.describe() + ": awaitMessages timeout must be a positive duration, got " + timeout);
      }
      return new Await(count, timeout);
    }
  }

  protected final Spec spec;

  protected RpcStreamBuilder(Spec spec) {
    this.spec = spec;
  }

  protected abstract B withSpec(Spec spec);

  protected abstract RpcProtocolKey<P, C> protocolKey();

  /** How to open this stream, built once per simulation. */
  protected abstract RpcStreamOpener<C, Req, Res> opener(P protocol);

  /** How this framework's exceptions and close statuses read in the report. */
  protected FailureDescriber failureDescriber() {
    return FailureDescriber.DEFAULT;
  }

  /**
   * Each received message as a JSON tree, for Gatling's {@code jsonPath(...)} checks; {@code null} (the
   * default): this framework's messages have no JSON view.
   */
  protected JsonView jsonView() {
    return null;
  }

  /**
   * Adds checks: {@code response(...)} and {@code responseThat(...)} apply to every received
   * message, {@code status()} to the stream's close.
   */
  public B check(CheckBuilder... checks) {
    List<CheckBuilder> all = new ArrayList<>(spec.checks());
    all.addAll(Arrays.asList(checks));
    return withSpec(
        new Spec(spec.kind(), spec.nameTemplate(), spec.name(), spec.streamKey(), List.copyOf(all), spec.timeout(), spec.timePolicy()));
  }

  /** How long the whole stream may last, instead of the protocol's default timeout. */
  public B timeout(Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(
          spec.describe() + ": timeout must be a positive duration, got " + timeout);
    }
    return withSpec(
        new Spec(spec.kind(), spec.nameTemplate(), spec.name(), spec.streamKey(), spec.checks(), timeout, spec.timePolicy()));
  }

  /**
   * The name under which the user's session keeps this stream (Gatling EL); by default the request
   * name. Two streams open at once in one user need two names.
   */
  public B streamName(String streamName) {
    if (streamName == null || streamName.isBlank()) {
      throw new IllegalArgumentException(spec.describe() + ": streamName must not be blank, got " + streamName);
    }
    return withSpec(
        new Spec(spec.kind(), spec.nameTemplate(), spec.name(), StreamAction.keyExpression(streamName), spec.checks(), spec.timeout(), spec.timePolicy()));
  }

  /** From when each received message is timed. */
  public B messageResponseTimePolicy(MessageResponseTimePolicy policy) {
    Objects.requireNonNull(policy, "messageResponseTimePolicy");
    return withSpec(
        new Spec(spec.kind(), spec.nameTemplate(), spec.name(), spec.streamKey(), spec.checks(), spec.timeout(), policy));
  }

  /** Opens a client or bidirectional stream (a server stream is opened by {@link #send}). */
  public ActionBuilder start() {
    refuseOn(StreamKind.SERVER_STREAM, "start()", "a server stream is opened by send(request)");
    return action(Verb.START, null);
  }

  /**
   * Sends one message. On a server stream this opens the stream with its one request; on the others
   * the stream must have been started. The user goes on at once unless the stream is not ready for
   * more (the server reads slowly): then it goes on when the stream is. {@code
   * send(message).awaitMessages(n)} also waits for {@code n} replies, in the same action.
   */
  public StreamSendActionBuilder send(Function<io.gatling.javaapi.core.Session, Req> message) {
    Objects.requireNonNull(message, "send: message");
    return new StreamSendActionBuilder(spec, await -> action(Verb.SEND, message, await));
  }

  public StreamSendActionBuilder send(Req message) {
    Objects.requireNonNull(message, "send: message");
    return send(new Constant<>(message));
  }

  /** A message that does not depend on the session: sent without wrapping the session for a function. */
  record Constant<Req>(Req message) implements Function<io.gatling.javaapi.core.Session, Req> {
    @Override
    public Req apply(io.gatling.javaapi.core.Session session) {
      return message;
    }
  }

  /** Tells the server the client has sent everything (a server stream does it by itself). */
  public ActionBuilder halfClose() {
    refuseOn(StreamKind.SERVER_STREAM, "halfClose()", "a server stream half-closes after its request");
    return action(Verb.HALF_CLOSE, null);
  }

  /** The user waits until the server closes the stream (or its deadline passes). */
  public ActionBuilder awaitStreamEnd() {
    return action(Verb.AWAIT_STREAM_END, null);
  }

  /**
   * The user waits until {@code count} messages have arrived that no earlier {@code awaitMessages}
   * of this stream waited for (those that came before it count too), as Gatling's WebSocket {@code
   * await} waits for its replies. {@code send(ping).awaitMessages(1)} makes a ping-pong in one
   * action per message. Every message is still checked and logged as it arrives. A KO when the stream ends
   * first; the stream's deadline bounds the wait.
   */
  public ActionBuilder awaitMessages(int count) {
    return awaitMessages(count, null);
  }

  /** As {@link #awaitMessages(int)}, and a KO (the stream stays open) when {@code timeout} passes first. */
  public ActionBuilder awaitMessages(int count, Duration timeout) {
    return action(Verb.AWAIT_MESSAGES, null, Await.of(spec, count, timeout));
  }

  /** Cancels the stream; the user goes on at once. */
  public ActionBuilder cancel() {
    return action(Verb.CANCEL, null);
  }

  private void refuseOn(StreamKind kind, String verb, String why) {
    if (spec.kind() == kind) {
      throw new IllegalStateException(spec.describe() + ": no " + verb + " on a " + kind.dslName() + ": " + why);
    }
  }

  private ActionBuilder action(Verb verb, Function<io.gatling.javaapi.core.Session, Req> message) {
    return action(verb, message, null);
  }

  private ActionBuilder action(Verb verb, Function<io.gatling.javaapi.core.Session, Req> message, Await await) {
    Spec fixed = spec;
    FailureDescriber describer = failureDescriber();
    RpcProtocolKey<P, C> key = protocolKey();
    JsonView jsonView = jsonView();
    return () ->
        (ctx, next) -> {
          RpcComponents<P, C> components = ctx.protocolComponentsRegistry().components(key);
          return new StreamAction<>(
              fixed, verb, message, await, opener(components.protocol()), describer, jsonView, components, ctx, next);
        };
  }
}
