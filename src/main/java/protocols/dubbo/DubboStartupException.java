package protocols.dubbo;

/**
 * Dubbo could not start what a simulation needs (an unreachable registry, say). Its message says what
 * and why in one line; it carries no stack trace, which would only show Gatling's start-up code.
 */
public final class DubboStartupException extends RuntimeException {

  public DubboStartupException(String message) {
    super(message, null, false, false);
  }
}
