package protocols.core;

/**
 * Opens and closes one framework client (a channel, a connection, a pool of async clients).
 *
 * @param <P> the framework's protocol
 * @param <C> the client type the framework's calls are sent through
 */
public interface ClientFactory<P, C> {

  C open(P protocol) throws Exception;

  void close(C client) throws Exception;

  /** A client found broken (closed by the server, say) is closed and replaced on its next use. */
  default boolean isUsable(C client) {
    return true;
  }
}
