package protocols.core;

import io.netty.util.concurrent.DefaultThreadFactory;
import io.gatling.core.session.Session;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.util.concurrent.EventExecutor;
import java.util.ArrayList;
import java.util.IdentityHashMap;
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
 *
 * <p>Each client is offered one of Gatling's event loops for its I/O ({@link ClientIo}): a per-user
 * client its user's loop; shared client {@code i} loop {@code i mod loops}, and a user is given the
 * shared clients of its own loop when there are at least as many clients as loops. Clients that take
 * the offer then answer on the thread their users already run on.
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
          new DefaultThreadFactory("rpc-client-closer", true));

  private static final AtomicInteger POOLS = new AtomicInteger();

  private final P protocol;
  private final ClientFactory<P, C> factory;
  private final ConnectionModel model;
  private final AtomicReferenceArray<C> shared;
  private final AtomicInteger next = new AtomicInteger();
  private final List<EventLoop> loops = new ArrayList<>();
  private final Map<EventLoop, Integer> loopIndex = new IdentityHashMap<>();
  private final AtomicInteger[] nextOnLoop;
  private final ChannelFactory<? extends SocketChannel> socketChannels;
  private final Map<Long, C> perUser = new ConcurrentHashMap<>();
  /** The session attribute a user keeps its per-user client of this pool under ({@link #holding}). */
  private final String heldClient = "gatlingrpc.client." + POOLS.incrementAndGet();
  private final ReconnectBackoff backoff;
  /** The backoff step each open client's connection attempt belongs to. */
  private final Map<C, Integer> steps = java.util.Collections.synchronizedMap(new IdentityHashMap<>());
  /** The last attempt a backoff step let through: its first answer ends the backoff for every user. */
  private volatile C probe;
  private volatile boolean closed;

  ClientPool(
      P protocol,
      ClientFactory<P, C> factory,
      ConnectionModel model,
      EventLoopGroup eventLoops,
      ChannelFactory<? extends SocketChannel> socketChannels) {
    this(protocol, factory, model, eventLoops, socketChannels, ReconnectBackoff.DEFAULT);
  }

  ClientPool(
      P protocol,
      ClientFactory<P, C> factory,
      ConnectionModel model,
      EventLoopGroup eventLoops,
      ChannelFactory<? extends SocketChannel> socketChannels,
      ReconnectBackoff.Settings reconnects) {
    this.backoff = new ReconnectBackoff(reconnects);
    this.protocol = protocol;
    this.factory = factory;
    this.model = model;
    this.shared = new AtomicReferenceArray<>(model.perUserClients() ? 0 : model.sharedClients());
    this.socketChannels = socketChannels;
    for (EventExecutor executor : eventLoops) {
      loopIndex.put((EventLoop) executor, loops.size());
      loops.add((EventLoop) executor);
    }
    this.nextOnLoop = new AtomicInteger[loops.size()];
    for (int i = 0; i < nextOnLoop.length; i++) {
      nextOnLoop[i] = new AtomicInteger();
    }
  }

  C clientFor(Session session) throws Exception {
    if (closed) {
      throw new IllegalStateException("the simulation is over: its clients are closed");
    }
    return model.perUserClients() ? userClient(session) : sharedClient(session.eventLoop());
  }

  private C sharedClient(EventLoop userLoop) throws Exception {
    int slot = sharedSlot(userLoop);
    C client = shared.get(slot);
    if (client != null && factory.isUsable(client)) {
      return inUse(client);
    }
    synchronized (shared) {
      C current = shared.get(slot);
      if (current != null && factory.isUsable(current)) {
        return inUse(current);
      }
      if (current != null) {
        shared.set(slot, null);
        retire(current);
      }
      C opened = open(new ClientIo(loops.get(slot % loops.size()), socketChannels));
      shared.set(slot, opened);
      return opened;
    }
  }

  /** Round-robin over the clients on the user's loop, or over all of them when there are fewer than loops. */
  private int sharedSlot(EventLoop userLoop) {
    int clients = shared.length();
    Integer loop = loopIndex.get(userLoop);
    if (loop == null || clients < loops.size()) {
      return Math.floorMod(next.getAndIncrement(), clients);
    }
    int onThisLoop = (clients - loop + loops.size() - 1) / loops.size();
    return loop + loops.size() * Math.floorMod(nextOnLoop[loop].getAndIncrement(), onThisLoop);
  }

  /**
   * {@code session}, holding {@code client} when it is the user's own client and not held yet: the
   * user's next call finds it among the session's attributes, which Gatling has just read, where a
   * lookup in the map of every user's client went to memory (1 % of the injector's CPU at 1000 users).
   */
  Session holding(Session session, C client) {
    return !model.perUserClients() || held(session) == client ? session : session.set(heldClient, client);
  }

  @SuppressWarnings("unchecked")
  private C held(Session session) {
    return (C) session.attributes().get(heldClient).getOrElse(() -> null);
  }

  private C userClient(Session session) throws Exception {
    long userId = session.userId();
    C client = held(session);
    if (client == null || !factory.isUsable(client)) {
      // none held, or held and unusable: the map's, which another action of this user may have replaced
      // since (no client turns usable again, so a usable held client is always the user's current one)
      client = perUser.get(userId);
    }
    if (client != null && factory.isUsable(client)) {
      return inUse(client);
    }
    if (client != null) {
      perUser.remove(userId, client);
      retire(client);
    }
    // only this user's event loop asks for its client, so there is no race on the same key
    C opened = open(new ClientIo(session.eventLoop(), socketChannels));
    perUser.put(userId, opened);
    return opened;
  }

  /** Opens a client when the reconnect backoff lets it; else throws its {@link ReconnectBackoff.Reconnecting}. */
  private C open(ClientIo io) throws Exception {
    C last = probe;
    if (last != null && backoff.holding() && factory.answered(last)) {
      answered(); // the step's attempt got through: every user may connect again
    }
    int step = backoff.beforeAttempt();
    // a client that fails to open is not counted: Dubbo's and Motan's connect (and reconnect) by themselves
    C opened = factory.open(protocol, io);
    steps.put(opened, step);
    if (step > 0) {
      probe = opened;
    }
    return opened;
  }

  private C inUse(C client) {
    if (backoff.holding() && factory.answered(client)) {
      answered();
    }
    return client;
  }

  /**
   * The backoff ends, and its probe is forgotten: a probe answers for good ({@link
   * ClientFactory#answered} stays true), so kept, it would end the backoff of the next outage at once,
   * after the very first failure, and every user would knock again.
   */
  private void answered() {
    backoff.answered();
    probe = null;
  }

  /** Closes a client found unusable; one that never worked counts against the target's backoff. */
  private void retire(C client) {
    Integer step = steps.remove(client);
    Throwable why = factory.failedBeforeAnswering(client);
    if (why != null && step != null) {
      backoff.failed(step, why);
    }
    CLOSER.execute(() -> closeQuietly(client)); // off the user's loop, as in releaseUser
  }

  /** Connection attempts let through by the reconnect backoff. */
  long connectionAttempts() {
    return backoff.attempts();
  }

  void releaseUser(long userId) {
    C client = perUser.remove(userId);
    if (client != null) {
      steps.remove(client);
      CLOSER.execute(() -> closeQuietly(client));
    }
  }

  @Override
  public void close() {
    closed = true;
    List<C> all = new ArrayList<>(perUser.values());
    perUser.clear();
    steps.clear();
    probe = null;
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
