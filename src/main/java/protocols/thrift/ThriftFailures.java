package protocols.thrift;

import org.apache.thrift.TApplicationException;
import org.apache.thrift.TBase;
import org.apache.thrift.TException;
import protocols.core.CallFailure;
import protocols.core.FailureDescriber;

/** The status and message of a failed Thrift call, as the report shows it. */
final class ThriftFailures implements FailureDescriber {

  static final ThriftFailures INSTANCE = new ThriftFailures();

  @Override
  public CallFailure describe(Throwable failure) {
    Throwable e = FailureDescriber.unwrap(failure);
    if (e instanceof ThriftCallException thrift) {
      return new CallFailure(thrift.status(), thrift.getMessage());
    }
    if (e instanceof TApplicationException app) {
      return new CallFailure(
          ThriftCallException.APPLICATION_EXCEPTION,
          "TApplicationException " + applicationType(app.getType()) + ": " + app.getMessage());
    }
    if (e instanceof TException && e instanceof TBase<?, ?>) {
      // an exception the IDL declares: its generated toString shows its fields
      return new CallFailure(e.getClass().getSimpleName(), "declared exception " + e);
    }
    if (e instanceof TException) {
      return new CallFailure(ThriftCallException.PROTOCOL_ERROR, "cannot decode the reply: " + FailureDescriber.messageChain(e));
    }
    return FailureDescriber.DEFAULT.describe(e);
  }

  private static String applicationType(int type) {
    return switch (type) {
      case TApplicationException.UNKNOWN_METHOD -> "UNKNOWN_METHOD";
      case TApplicationException.INVALID_MESSAGE_TYPE -> "INVALID_MESSAGE_TYPE";
      case TApplicationException.WRONG_METHOD_NAME -> "WRONG_METHOD_NAME";
      case TApplicationException.BAD_SEQUENCE_ID -> "BAD_SEQUENCE_ID";
      case TApplicationException.MISSING_RESULT -> "MISSING_RESULT";
      case TApplicationException.INTERNAL_ERROR -> "INTERNAL_ERROR";
      case TApplicationException.PROTOCOL_ERROR -> "PROTOCOL_ERROR";
      case TApplicationException.INVALID_TRANSFORM -> "INVALID_TRANSFORM";
      case TApplicationException.INVALID_PROTOCOL -> "INVALID_PROTOCOL";
      case TApplicationException.UNSUPPORTED_CLIENT_TYPE -> "UNSUPPORTED_CLIENT_TYPE";
      default -> "UNKNOWN";
    };
  }
}
