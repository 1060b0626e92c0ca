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
 * The part every framework's request builder shares: name (Gatling EL), payload, checks and timeout.
 * Immutable: each method returns a new builder. A framework subclass adds what its calls need and
 * provides the {@link RpcCall} that sends them.
 *
 * @param <B> the framework's own builder type, returned by the methods here
 */
public abstract class RpcRequestBuilder<
        B extends RpcRequestBuilder<B, P, C, Req, Res>, P extends RpcProtocol, C, Req, Res>
    implements ActionBuilder {

  /** The framework-independent definition of a request. */
  public record Common<Req>(
      String nameTemplate,
      Function1<Session, Validation<String>> name,
      Function<io.gatling.javaapi.core.Session, Req> payload,
      List<CheckBuilder> checks,
      Duration timeout) {

    public static <Req> Common<Req> named(String requestName) {
      Objects.requireNonNull(requestName, "request name");
      return new Common<>(
          requestName, Expressions.toStringExpression(requestName), null, List.of(), null);
    }
  }

  protected final Common<Req> common;

  protected RpcRequestBuilder(Common<Req> common) {
    this.common = common;
  }

  /** A copy of this builder with other common settings. */
  protected abstract B withCommon(Common<Req> common);

  protected abstract RpcProtocolKey<P, C> protocolKey();

  /** How to send this request, built once per simulation. */
  protected abstract RpcCall<C, Req, Res> call(P protocol);

  /** How this framework's exceptions read in the report. */
  protected FailureDescriber failureDescriber() {
    return FailureDescriber.DEFAULT;
  }

  /**
   * The response as a JSON tree, for Gatling's {@code jsonPath(...)} checks; {@code null} (the default):
   * this framework's responses have no JSON view.
   */
  protected JsonView jsonView() {
    return null;
  }

  /** The request, built from the virtual user's session for every call. */
  public B payload(Function<io.gatling.javaapi.core.Session, Req> payload) {
    Objects.requireNonNull(payload, "payload");
    return withCommon(
        new Common<>(
            common.nameTemplate(), common.name(), payload, common.checks(), common.timeout()));
  }

  /** The same request for every call. */
  public B payload(Req request) {
    Objects.requireNonNull(request, "payload");
    return payload(session -> request);
  }

  /** Overrides the protocol's default timeout for this request. */
  public B timeout(Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException(
          common.nameTemplate() + ": timeout must be a positive duration, got " + timeout);
    }
    return withCommon(
        new Common<>(
            common.nameTemplate(), common.name(), common.payload(), common.checks(), timeout));
  }

  /** Adds checks on the call's outcome, built with {@link protocols.core.check.RpcChecks}. */
  public B check(CheckBuilder... checks) {
    List<CheckBuilder> all = new ArrayList<>(common.checks());
    all.addAll(Arrays.asList(checks));
    return withCommon(
        new Common<>(
            common.nameTemplate(),
            common.name(),
            common.payload(),
            List.copyOf(all),
            common.timeout()));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    if (common.payload() == null) {
      throw new IllegalStateException(
          protocolKey().dslName()
              + "(\""
              + common.nameTemplate()
              + "\"): no payload: add .payload(session -> request)");
    }
    return (ctx, next) -> {
      RpcComponents<P, C> components = ctx.protocolComponentsRegistry().components(protocolKey());
      return new RpcAction<>(
          common, call(components.protocol()), failureDescriber(), jsonView(), components, ctx, next);
    };
  }
}
