package benchmark.bare;

import benchmark.thrift.ThriftBenchmarkMessages;
import benchmark.thrift.gen.BenchmarkMessage;
import benchmark.thrift.gen.Greeter;
import io.netty.channel.EventLoopGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import protocols.core.HostAndPort;
import protocols.thrift.GeneratedCalls;
import protocols.thrift.ThriftEncoding;
import protocols.thrift.ThriftProtocolBuilder;
import protocols.thrift.ThriftTransport;
import protocols.thrift.client.ThriftClientSettings;
import protocols.thrift.client.ThriftConnection;
import protocols.thrift.codec.ThriftMessageDecoder;

/**
 * The thrift protocol's own client without Gatling: the generated {@code Greeter.AsyncClient::say}
 * through {@link GeneratedCalls} on a {@link ThriftConnection} (Netty), framed and binary as the
 * protocol's defaults, on event loops of its own (as many, and of the transport, as Gatling has); a chain's next call
 * starts on the loop its reply arrived on, as a virtual user's does.
 */
final class ThriftNettyBareClient implements BareClient {

  private static final Duration TIMEOUT = ThriftProtocolBuilder.DEFAULT_TIMEOUT;
  private static final BenchmarkMessage REQUEST = ThriftBenchmarkMessages.request();

  /** The event loops every connection of every client shares. */
  static final class Loops implements BareClients {
    private final ThriftClientSettings settings;
    // the transport Gatling's loops run (LoopLocal): on NIO, which it ran before, this loop spent 1-2 µs
    // more a call (BENCHMARKS.md, 2026-12-03 afternoon); and as many loops, Netty's default count as
    // Gatling's (2 x cores, -Dio.netty.eventLoopThreads): it had one per core, half of Gatling's, and
    // each of its loops then found about twice the replies per wake-up
    private final EventLoopGroup group = LoopLocal.eventLoops(0, "thrift-bare");

    Loops(HostAndPort target) {
      settings =
          new ThriftClientSettings(
              target,
              ThriftProtocolBuilder.DEFAULT_CONNECT_TIMEOUT,
              ThriftTransport.FRAMED,
              ThriftEncoding.BINARY,
              null,
              ThriftMessageDecoder.DEFAULT_MAX_MESSAGE_LENGTH);
    }

    @Override
    public BareClient open(int connections, boolean oneChainEach) {
      return new ThriftNettyBareClient(this, connections, !oneChainEach);
    }

    @Override
    public void close() throws InterruptedException {
      group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
    }
  }

  private final Loops loops;
  private final List<ThriftConnection> connections = new ArrayList<>();
  private final AtomicInteger next = new AtomicInteger();

  private final boolean shared;

  private ThriftNettyBareClient(Loops loops, int count, boolean shared) {
    this.loops = loops;
    this.shared = shared;
    for (int i = 0; i < count; i++) {
      connections.add(open());
    }
  }

  private ThriftConnection open() {
    return ThriftConnection.open(loops.settings, loops.group, LoopLocal.SOCKETS, shared);
  }

  @Override
  public CompletableFuture<Boolean> say() {
    int slot = Math.floorMod(next.getAndIncrement(), connections.size());
    ThriftConnection connection = connections.get(slot);
    if (!connection.isUsable()) {
      synchronized (connections) {
        if (connections.get(slot) == connection) {
          connections.set(slot, connection = open());
        } else {
          connection = connections.get(slot);
        }
      }
    }
    try {
      return GeneratedCalls.send(
              connection, ThriftEncoding.BINARY, Greeter.AsyncClient::new, Greeter.AsyncClient::say, REQUEST, TIMEOUT)
          .thenApply(ThriftBenchmarkMessages::isOk);
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public void close() {
    connections.forEach(ThriftConnection::close);
  }
}
