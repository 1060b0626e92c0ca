package protocols.core.check;

import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.check.Check;
import io.gatling.core.check.CheckMaterializer;
import protocols.core.CallResult;
import scala.Function1;

/** Turns Gatling check builders into checks on a {@link CallResult}, which needs no preparation. */
final class CallResultCheckMaterializer
    extends CheckMaterializer<RpcCheckType, Check<CallResult>, CallResult, CallResult> {

  static final CallResultCheckMaterializer INSTANCE = new CallResultCheckMaterializer();

  private CallResultCheckMaterializer() {
    super(check -> check);
  }

  @Override
  public Function1<CallResult, Validation<CallResult>> preparer() {
    return Success::new;
  }
}
