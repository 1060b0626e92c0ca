package protocols.core;

/**
 * A client the {@link ClientPool} can judge on its own: whether it is still usable, whether its target
 * ever answered it, and why it failed before that. What the {@link ReconnectBackoff} needs of every
 * framework's client, one way for all ({@link PooledClientFactory}).
 */
public interface PooledClient extends AutoCloseable {

  /** False once the client is broken or closed: the pool replaces it on its next use. */
  boolean isUsable();

  /** Whether the target has answered any call: the target is alive, which ends a backoff. */
  boolean answered();

  /** Why the client turned unusable without ever getting an answer, or null when it did answer (or has not failed). */
  Throwable failedBeforeAnswering();

  @Override
  void close();
}
