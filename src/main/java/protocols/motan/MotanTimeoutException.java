package protocols.motan;

import java.time.Duration;

/** Motan gave up waiting for a response: its request timeout passed. */
final class MotanTimeoutException extends RuntimeException {

  MotanTimeoutException(Duration timeout, Throwable motan) {
    // worded as the bridge's own timeout, which may fire first: the report counts both as one failure
    super("no response within the timeout of " + timeout.toMillis() + " ms", motan, false, false);
  }
}
