package protocols.core.check;

import com.fasterxml.jackson.databind.JsonNode;
import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.check.Check;
import io.gatling.core.check.Extractor;
import io.gatling.core.check.FindExtractor;
import io.gatling.core.check.jsonpath.JsonPathCheckType;
import io.gatling.javaapi.core.CheckBuilder;
import io.gatling.javaapi.core.internal.CoreCheckType;
import io.gatling.javaapi.core.internal.Expressions;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;
import protocols.core.CallResult;
import protocols.core.DeferredResponse;
import scala.Function1;
import scala.Option;

/**
 * Checks on a call's outcome, with Gatling's own check DSL ({@code .is}, {@code .gt}, {@code .saveAs},
 * {@code .transform}, ...).
 *
 * <pre>{@code
 * .check(response(BenchmarkMessage::getField1).is("OK"))
 * .check(response(HelloReply::getMessage).saveAs("greeting"))
 * .check(responseThat("field2 is 100", reply -> reply.getField2() == 100))
 * .check(status().is("NOT_FOUND"))   // the call is expected to fail with that status
 * }</pre>
 *
 * A request without a {@link #status()} check counts every failed call as KO.
 */
public final class RpcChecks {

  private RpcChecks() {}

  /** A value extracted from the decoded response; finds nothing when the call failed. */
  public static <R, X> CheckBuilder.Find<X> response(Function<R, X> extractor) {
    return find("response", RpcCheckType.RESPONSE, result -> responseValue(result, extractor));
  }

  /** A predicate on the decoded response; {@code description} names it in the KO message. */
  public static <R> CheckBuilder.Final responseThat(String description, Predicate<R> predicate) {
    Function<R, Boolean> test = predicate::test;
    return response(test).is(true).name(description);
  }

  /** The call's status: {@value CallResult#OK}, or the framework's code for the failure. */
  public static CheckBuilder.Find<String> status() {
    return find(
        "status", RpcCheckType.STATUS, result -> new Success<>(Option.apply(result.status())));
  }

  /** Whether these checks decide themselves what a failed call means. */
  public static boolean checksStatus(List<CheckBuilder> checks) {
    return checks.stream().anyMatch(check -> check.type() == RpcCheckType.STATUS);
  }

  /** Gatling's form of the checks; refuses checks that were not built for RPC calls. */
  public static scala.collection.immutable.List<Check<CallResult>> toScala(
      List<CheckBuilder> checks) {
    return toScala(checks, null);
  }

  /**
   * As {@link #toScala(List)}; with a {@code jsonView} (the response as a JSON tree) Gatling's own
   * {@code jsonPath(...)} checks apply too.
   */
  @SuppressWarnings("unchecked")
  public static scala.collection.immutable.List<Check<CallResult>> toScala(
      List<CheckBuilder> checks, JsonView jsonView) {
    List<Check<CallResult>> built = new ArrayList<>(checks.size());
    JsonCheckMaterializer json = jsonView == null ? null : new JsonCheckMaterializer(jsonView);
    for (CheckBuilder check : checks) {
      if (check.type() == CoreCheckType.JsonPath && json != null) {
        built.add(
            ((io.gatling.core.check.CheckBuilder<JsonPathCheckType, JsonNode>) check.asScala())
                .build(json));
        continue;
      }
      if (!(check.type() instanceof RpcCheckType)) {
        throw new IllegalArgumentException(
            "check of type "
                + check.type()
                + " cannot apply to an RPC call: use RpcChecks.response(...), responseThat(...) or status()"
                + (check.type() == CoreCheckType.JsonPath
                    ? " (jsonPath(...) applies to calls with a JSON view of their response, such as grpc(...).method(...))"
                    : ""));
      }
      io.gatling.core.check.CheckBuilder<RpcCheckType, CallResult> scala =
          (io.gatling.core.check.CheckBuilder<RpcCheckType, CallResult>) check.asScala();
      built.add(scala.build(CallResultCheckMaterializer.INSTANCE));
    }
    return scala.jdk.javaapi.CollectionConverters.asScala(built).toList();
  }

  @SuppressWarnings("unchecked")
  private static <R, X> Validation<Option<X>> responseValue(
      CallResult result, Function<R, X> extractor) {
    if (result.failed()) {
      return new Success<>(Option.empty());
    }
    Object response = result.response();
    if (response instanceof DeferredResponse deferred) {
      try {
        response = deferred.decoded();
      } catch (Exception e) {
        return failure("the response did not decode: " + e.getMessage());
      }
    }
    try {
      return new Success<>(Option.apply(extractor.apply((R) response)));
    } catch (ClassCastException e) {
      return failure(
          "the response is a "
              + response.getClass().getName()
              + ", which the check's extractor does not take");
    } catch (RuntimeException e) {
      return failure("the check's extractor threw " + e);
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> Validation<T> failure(String message) {
    return (Validation<T>) (Validation<?>) Failure.apply(message);
  }

  private static <X> CheckBuilder.Find<X> find(
      String name, RpcCheckType type, Function1<CallResult, Validation<Option<X>>> extract) {
    Extractor<CallResult, X> extractor = new FindExtractor<>(name, extract);
    Function1<io.gatling.core.session.Session, Validation<Extractor<CallResult, X>>> expression =
        Expressions.toStaticValueExpression(extractor);
    io.gatling.core.check.CheckBuilder$Find$Default<RpcCheckType, CallResult, X> scala =
        new io.gatling.core.check.CheckBuilder$Find$Default<>(expression, true);
    return new CheckBuilder.Find.Default<>(scala, type, Object.class, Function.identity());
  }
}
