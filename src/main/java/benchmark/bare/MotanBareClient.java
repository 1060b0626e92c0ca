package benchmark.bare;

import benchmark.BenchmarkMessages;
import benchmark.motan.BenchmarkServiceAsync;
import com.weibo.api.motan.common.MotanConstants;
import com.weibo.api.motan.config.ProtocolConfig;
import com.weibo.api.motan.config.RefererConfig;
import com.weibo.api.motan.rpc.ResponseFuture;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CancellationException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import protocols.core.HostAndPort;
import protocols.motan.MotanProtocolBuilder;

/**
 * Motan's asynchronous interface {@link BenchmarkServiceAsync#sayAsync} on N referers of one connection
 * each, used round-robin, set up as MotanSimulation's clients are (direct URL, hessian2, group
 * default_rpc, version 1.0, 10 s request timeout, {@code minClientConnections(1)}).
 *
 * <p>The plain async call, made on the caller's thread, as a Motan user makes it. {@code sayAsync}
 * returns only once the request is written (it waits for the write), so the caller must not be one of
 * Motan's I/O threads: a chain sending its next call from the I/O thread that delivered its reply waits
 * there for a write queued on another connection's I/O thread, which may wait the same way (tried: with 4
 * shared connections every I/O thread hung in {@code NettyChannel.request}). So a reply is handed to a
 * caller thread, and the chain's next call is made there.
 *
 * <p>What differs from the motan protocol: the protocol hands each call from Gatling's event loop to a
 * sender thread, which makes the same call, and each reply back to Gatling's event loop: two hand-offs
 * per call where this loop has one, in a caller pool of the same size as the protocol's sender pool.
 */
final class MotanBareClient implements BareClient {

  private static final byte[] REQUEST = BenchmarkMessages.request().toByteArray();

  /** The caller threads every client shares. */
  static final class Callers implements BareClients {
    private final HostAndPort target;
    private final ExecutorService executor;

    Callers(HostAndPort target) {
      this.target = target;
      AtomicInteger count = new AtomicInteger();
      // the size of the motan protocol's sender pool (MotanSenders)
      executor = Executors.newFixedThreadPool(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()), runnable -> {
        Thread thread = new Thread(runnable, "motan-bare-caller-" + count.incrementAndGet());
        thread.setDaemon(true);
        return thread;
      });
    }

    @Override
    public BareClient open(int connections, boolean oneChainEach) {
      return new MotanBareClient(this, connections);
    }

    @Override
    public void close() {
      executor.shutdownNow();
    }
  }

  private final Executor callers;
  private final List<RefererConfig<BenchmarkServiceAsync>> referers = new ArrayList<>();
  private final List<BenchmarkServiceAsync> services = new ArrayList<>();
  private final AtomicInteger next = new AtomicInteger();

  private MotanBareClient(Callers callers, int connections) {
    this.callers = callers.executor;
    try {
      for (int i = 0; i < connections; i++) {
        RefererConfig<BenchmarkServiceAsync> referer = referer(callers.target);
        referers.add(referer);
        services.add(referer.getRef());
      }
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  private static RefererConfig<BenchmarkServiceAsync> referer(HostAndPort target) {
    ProtocolConfig motan = new ProtocolConfig();
    motan.setId(MotanConstants.PROTOCOL_MOTAN);
    motan.setName(MotanConstants.PROTOCOL_MOTAN);
    motan.setSerialization(MotanProtocolBuilder.DEFAULT_SERIALIZATION);
    motan.setMinClientConnection(1);
    motan.setMaxClientConnection(MotanProtocolBuilder.DEFAULT_MAX_CLIENT_CONNECTIONS);

    RefererConfig<BenchmarkServiceAsync> referer = new RefererConfig<>();
    referer.setInterface(BenchmarkServiceAsync.class);
    referer.setProtocol(motan);
    referer.setGroup(MotanProtocolBuilder.DEFAULT_GROUP);
    referer.setVersion(MotanProtocolBuilder.DEFAULT_VERSION);
    referer.setRequestTimeout((int) MotanProtocolBuilder.DEFAULT_REQUEST_TIMEOUT.toMillis());
    referer.setAsyncInitConnection(false); // connected now, not raced by the first call
    referer.setCheck(false);
    referer.setDirectUrl(target.host() + ":" + target.port());
    return referer;
  }

  @Override
  public CompletableFuture<Boolean> say() {
    CompletableFuture<Boolean> reply = new CompletableFuture<>();
    ResponseFuture call;
    try {
      call = services.get(Math.floorMod(next.getAndIncrement(), services.size())).sayAsync(REQUEST);
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
    call.addListener(done -> callers.execute(() -> {
      try {
        if (done.isCancelled()) { // Motan's timeout monitor cancels calls past their request timeout
          reply.completeExceptionally(new CancellationException("no reply within the request timeout"));
        } else if (!done.isSuccess()) {
          reply.completeExceptionally(done.getException());
        } else {
          reply.complete(BenchmarkMessages.OK.equals(BenchmarkMessages.field1((byte[]) done.getValue())));
        }
      } catch (RuntimeException e) { // a reply that does not decode
        reply.completeExceptionally(e);
      }
    }));
    return reply;
  }

  @Override
  public void close() {
    referers.forEach(RefererConfig::destroy);
  }
}
