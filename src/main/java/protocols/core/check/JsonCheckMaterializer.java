package protocols.core.check;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.check.Check;
import io.gatling.core.check.CheckMaterializer;
import io.gatling.core.check.jsonpath.JsonPathCheckType;
import java.util.function.Function;
import protocols.core.CallResult;
import scala.Function1;

/**
 * Lets Gatling's own {@code jsonPath(...)} check a response through a JSON view of it (for gRPC
 * without stubs: the message's canonical JSON). Gatling prepares once per response for all checks.
 */
final class JsonCheckMaterializer
    extends CheckMaterializer<JsonPathCheckType, Check<CallResult>, CallResult, JsonNode> {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Function<Object, String> jsonView;

  JsonCheckMaterializer(Function<Object, String> jsonView) {
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
        return new Success<>(JSON.readTree(jsonView.apply(result.response())));
      } catch (Exception e) {
        return (Validation<JsonNode>) (Validation<?>) Failure.apply("the response is not JSON: " + e.getMessage());
      }
    };
  }
}
