package protocols.core;

/**
 * How virtual users map to client connections.
 *
 * <p>{@link #shared(int)}: a fixed set of clients opened lazily and used round-robin by every user (the
 * usual way to load a server from few connections). {@link #perUser()}: each virtual user opens its own
 * client on its first call and closes it when it exits, as the seed benchmark's goroutines did.
 */
public record ConnectionModel(boolean perUserClients, int sharedClients) {

  public ConnectionModel {
    if (!perUserClients && sharedClients < 1) {
      throw new IllegalArgumentException(
          "shared connections: expected a count of at least 1, got " + sharedClients);
    }
  }

  public static ConnectionModel shared(int clients) {
    return new ConnectionModel(false, clients);
  }

  public static ConnectionModel perUser() {
    return new ConnectionModel(true, 0);
  }

  @Override
  public String toString() {
    return perUserClients ? "one connection per virtual user" : sharedClients + " shared connection(s)";
  }
}
