package protocols.core.check;

import com.fasterxml.jackson.databind.JsonNode;
import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.check.Check;
import io.gatling.core.check.CheckMaterializer;
import io.gatling.core.check.jsonpath.JsonPathCheckType;
import protocols.core.CallResult;
import scala.Function1;

/**
 * Lets Gatling's own {@code jsonPath(...)} check a response through a JSON view of it (for gRPC
 * without stubs: the message's canonical JSON). Gatling prepares once per response for all checks,
 * and only for a response that a jsonPath check reaches.
 */
final class JsonCheckMaterializer
    extends CheckMaterializer<JsonPathCheckType, Check<CallResult>, CallResult, JsonNode> {

  private final JsonView jsonView;

  JsonCheckMaterializer(JsonView jsonView) {
    super(check -> check);
    this.jsonView = jsonView;
  }

  @Override
  @SuppressWarnings("unchecked")
  public Function1<CallResult, Validation<JsonNode>> preparer() {
    return result -> {
      if (result.failed()) {
        return (Validation<JsonNode>) (Validation<?>) Failure.apply("no response to check: " + result.errorMessage());
      }
      try {
        return new Success<>(jsonView.json(result.response()));
      } catch (Exception e) {
        return (Validation<JsonNode>) (Validation<?>) Failure.apply("the response is not JSON: " + e.getMessage());
      }
    };
  }
}
