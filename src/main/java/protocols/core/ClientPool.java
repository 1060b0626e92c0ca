package protocols.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The clients of one protocol in one simulation, laid out by its {@link ConnectionModel}. Clients are
 * opened on first use, so an unreachable target makes calls fail (KO) instead of the simulation.
 */
final class ClientPool<P, C> implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(ClientPool.class);

  /**
   * Where a virtual user's client is closed when the user exits: never on the user's event loop, where
   * a slow close (a Dubbo reference, a channel awaiting termination) would stall every other user of
   * that loop without showing in any measured call.
   */
  private static final ExecutorService CLOSER =
      Executors.newFixedThreadPool(
          2,
          runnable -> {
            Thread thread = new Thread(runnable, "rpc-client-closer");
            thread.setDaemon(true);
            return thread;
          });

  private final P protocol;
  private final ClientFactory<P, C> factory;
  private final ConnectionModel model;
  private final AtomicReferenceArray<C> shared;
  private final AtomicInteger next = new AtomicInteger();
  private final Map<Long, C> perUser = new ConcurrentHashMap<>();
  private volatile boolean closed;

  ClientPool(P protocol, ClientFactory<P, C> factory, ConnectionModel model) {
    this.protocol = protocol;
    this.factory = factory;
    this.model = model;
    this.shared = new AtomicReferenceArray<>(model.perUserClients() ? 0 : model.sharedClients());
  }

  C clientFor(long userId) throws Exception {
    if (closed) {
      throw new IllegalStateException("the simulation is over: its clients are closed");
    }
    return model.perUserClients() ? userClient(userId) : sharedClient();
  }

  private C sharedClient() throws Exception {
    int slot = Math.floorMod(next.getAndIncrement(), shared.length());
    C client = shared.get(slot);
    if (client != null && factory.isUsable(client)) {
      return client;
    }
    synchronized (shared) {
      C current = shared.get(slot);
      if (current != null && factory.isUsable(current)) {
        return current;
      }
      if (current != null) {
        closeQuietly(current);
      }
      C opened = factory.open(protocol);
      shared.set(slot, opened);
      return opened;
    }
  }

  private C userClient(long userId) throws Exception {
    C client = perUser.get(userId);
    if (client != null && factory.isUsable(client)) {
      return client;
    }
    if (client != null) {
      perUser.remove(userId, client);
      closeQuietly(client);
    }
    // only this user's event loop asks for its client, so there is no race on the same key
    C opened = factory.open(protocol);
    perUser.put(userId, opened);
    return opened;
  }

  void releaseUser(long userId) {
    C client = perUser.remove(userId);
    if (client != null) {
      CLOSER.execute(() -> closeQuietly(client));
    }
  }

  @Override
  public void close() {
    closed = true;
    List<C> all = new ArrayList<>(perUser.values());
    perUser.clear();
    for (int i = 0; i < shared.length(); i++) {
      C client = shared.getAndSet(i, null);
      if (client != null) {
        all.add(client);
      }
    }
    all.forEach(this::closeQuietly);
  }

  private void closeQuietly(C client) {
    try {
      factory.close(client);
    } catch (Exception e) {
      LOG.debug("closing a client failed", e);
    }
  }
}
