package protocols.core;

/**
 * What a client whose library connects by itself (Dubbo, Motan) knows of its target for the
 * {@link ReconnectBackoff}: whether the target ever answered, and the first reason a call could not
 * reach it, after which the client is unusable.
 */
public final class Reachability {

  private volatile boolean answered;
  private volatile Throwable unreachable;

  /** The target answered a call (with a result or an error of its own). */
  public void answered() {
    if (!answered) {
      answered = true;
    }
  }

  public boolean hasAnswered() {
    return answered;
  }

  /** Records why a call could not reach the target; the first reason stays. */
  public void unreachable(Throwable why) {
    if (unreachable == null) {
      unreachable = why;
    }
  }

  public boolean isReachable() {
    return unreachable == null;
  }

  /** Why the target was never reached, or null when it answered (or nothing failed). */
  public Throwable failedBeforeAnswering() {
    return answered ? null : unreachable;
  }
}
