package protocols.core;

/**
 * The {@link ClientFactory} of a framework whose client is one {@link NettyConnection}: whether it is
 * usable, whether it ever answered and why it failed before answering are the connection's to say, for
 * every such framework alike. A framework only opens its connection.
 *
 * @param <P> the framework's protocol
 * @param <C> its connection
 */
public interface NettyConnectionFactory<P, C extends NettyConnection<?, ?, ?>> extends ClientFactory<P, C> {

  @Override
  default void close(C connection) {
    connection.close();
  }

  /** A connection that failed or was closed is replaced by a new one on its next use. */
  @Override
  default boolean isUsable(C connection) {
    return connection.isUsable();
  }

  @Override
  default Throwable failedBeforeAnswering(C connection) {
    return connection.failedBeforeAnswering();
  }

  @Override
  default boolean answered(C connection) {
    return connection.anyReply();
  }
}
