package protocols.core;

/**
 * Opens and closes one framework client (a channel, a connection, a pool of async clients).
 *
 * @param <P> the framework's protocol
 * @param <C> the client type the framework's calls are sent through
 */
public interface ClientFactory<P, C> {

  /**
   * @param io Gatling's event loop this client should do its I/O on when its library allows it (see
   *     {@link ClientIo}); ignored otherwise
   */
  C open(P protocol, ClientIo io) throws Exception;

  void close(C client) throws Exception;

  /**
   * A client found broken (closed by the server, say) is closed and replaced on its next use. A client
   * that worked and then lost its connection should say false at once rather than reconnect by itself
   * on its library's schedule: its replacement is a new attempt, which the {@link ReconnectBackoff}
   * holds back and counts when it fails (gRPC's channels and the Netty connections alike).
   */
  default boolean isUsable(C client) {
    return true;
  }

  /**
   * For the {@link ReconnectBackoff}: why a client found unusable never worked (it failed to connect, or
   * the target closed it before any answer), or null when it did work or cannot tell.
   */
  default Throwable failedBeforeAnswering(C client) {
    return null;
  }

  /** For the {@link ReconnectBackoff}: whether the client has had an answer, which ends a backoff. */
  default boolean answered(C client) {
    return true;
  }
}
