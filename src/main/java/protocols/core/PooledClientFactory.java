package protocols.core;

/**
 * The {@link ClientFactory} of a framework whose client is a {@link PooledClient}: whether it is usable,
 * whether it ever answered and why it failed before answering are the client's to say, for every such
 * framework alike. A framework only opens its client.
 *
 * @param <P> the framework's protocol
 * @param <C> its client
 */
public interface PooledClientFactory<P, C extends PooledClient> extends ClientFactory<P, C> {

  @Override
  default void close(C client) {
    client.close();
  }

  @Override
  default boolean isUsable(C client) {
    return client.isUsable();
  }

  @Override
  default Throwable failedBeforeAnswering(C client) {
    return client.failedBeforeAnswering();
  }

  @Override
  default boolean answered(C client) {
    return client.answered();
  }
}
