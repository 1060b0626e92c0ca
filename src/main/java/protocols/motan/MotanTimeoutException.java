package protocols.motan;

import java.time.Duration;

/** Motan gave up waiting for a response: its request timeout passed. */
final class MotanTimeoutException extends RuntimeException {

  MotanTimeoutException(Duration timeout, Throwable motan) {
    super("no response within the request timeout of " + timeout.toMillis() + " ms", motan, false, false);
  }
}
