package protocols.core;

/**
 * The outcome of one call, as checks see it: the decoded response, or the failure's status and
 * message. A successful call has status {@value #OK}.
 */
public record CallResult(Object response, String status, String errorMessage) {

  public static final String OK = "OK";

  static CallResult success(Object response) {
    return new CallResult(response, OK, null);
  }

  static CallResult failure(CallFailure failure) {
    return new CallResult(null, failure.status(), failure.message());
  }

  public boolean failed() {
    return errorMessage != null;
  }
}
