package protocols.core;

/**
 * A pooled client whose library connects (and reconnects) by itself, as Dubbo's and Motan's do: the
 * {@link ReconnectBackoff} cannot hold its connection attempts back, so the first call that cannot reach
 * the target makes the client unusable, and the pool replaces it when the backoff allows. What such a
 * client knows of its target: whether it ever answered, and the first reason a call could not reach it.
 */
public abstract class SelfConnectingClient implements PooledClient {

  private volatile boolean answered;
  private volatile Throwable unreachable;

  /** Whether the client is still open (not closed by the pool or the simulation's end). */
  protected abstract boolean isOpen();

  /**
   * Whether a call that cannot reach the target should turn the client unusable: direct targets only;
   * through a registry, no provider may mean none registered yet.
   */
  protected abstract boolean backsOff();

  /** The KO message of a call that could not reach the target, as the report groups them. */
  protected abstract String describeUnreachable(Throwable cause);

  /** False once a call could not reach the target, or the client is closed. */
  @Override
  public final boolean isUsable() {
    return unreachable == null && isOpen();
  }

  /** The target answered a call (with a result or an error of its own): it is alive. */
  public final void hasBeenAnswered() {
    if (!answered) {
      answered = true;
    }
  }

  @Override
  public final boolean answered() {
    return answered;
  }

  /** A call could not reach the target: the client turns unusable (when it backs off); the first reason stays. */
  public final void unreachable(Throwable cause) {
    if (unreachable == null && isOpen() && backsOff()) {
      unreachable = new IllegalStateException(describeUnreachable(cause), cause);
    }
  }

  /** The library's own exception of the first call that could not reach the target; null while none could not. */
  protected final Throwable unreachableCause() {
    Throwable why = unreachable;
    return why == null ? null : why.getCause();
  }

  @Override
  public final Throwable failedBeforeAnswering() {
    return answered ? null : unreachable;
  }
}
