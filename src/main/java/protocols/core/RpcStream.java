package protocols.core;

/**
 * One open stream of a framework client, as the bridge drives it: always from the virtual user's
 * event loop, one call at a time. A framework adapter implements it over its own streaming call.
 */
public interface RpcStream<Req> {

  /** Writes one message. The bridge asks {@link #isReady()} before letting the user send another. */
  void send(Req message);

  /**
   * Whether the transport takes more messages without buffering them: when false, the bridge holds
   * the sending user back until {@link StreamListener#onReady()}.
   */
  boolean isReady();

  /** No more messages from the client. */
  void halfClose();

  /** Ends the stream at once; the adapter still reports its close to the listener. */
  void cancel(String reason);

  /** Asks the server for {@code messages} more messages (the bridge asks one per message handled). */
  void request(int messages);
}
