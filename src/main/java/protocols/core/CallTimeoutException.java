package protocols.core;

import java.time.Duration;

/** No response arrived in time, and the framework's client did not say so itself. */
public final class CallTimeoutException extends RuntimeException {

  public CallTimeoutException(Duration timeout) {
    super("no response within the timeout of " + timeout.toMillis() + " ms", null, false, false);
  }
}
