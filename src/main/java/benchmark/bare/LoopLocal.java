package benchmark.bare;

import io.gatling.netty.util.Transports;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiFunction;

/**
 * A bare client's connections, each on an event loop made as Gatling makes its own (native transport,
 * default count), chosen as the protocols choose them for a virtual user: a call made on a connection's
 * loop (a chain's next call, sent from the previous one's completion) goes on a connection of that loop,
 * as grpc-java's AsyncClient also keeps each outstanding call on its channel. Round-robin over all of
 * them would start most calls from another connection's thread, and the client would then queue the
 * write to that connection's loop: a thread hop per call that the Gatling path does not make. Calls
 * from elsewhere (each chain's first) are spread round-robin.
 */
final class LoopLocal<C> {

  /** Gatling's {@code gatling.netty.useNativeTransport}, true unless the bench is given it: the bare loops run what Gatling's would. */
  static final boolean NATIVE_TRANSPORT = Boolean.parseBoolean(System.getProperty("gatling.netty.useNativeTransport", "true"));

  static final ChannelFactory<? extends SocketChannel> SOCKETS = Transports.newSocketChannelFactory(NATIVE_TRANSPORT, false);

  /** Event loops of the transport Gatling's would run; {@code threads} 0: Netty's default count. */
  static EventLoopGroup eventLoops(int threads, String name) {
    return Transports.newEventLoopGroup(NATIVE_TRANSPORT, false, threads, name);
  }

  private final List<EventLoop> loops = new ArrayList<>();
  private final List<C> connections = new ArrayList<>();
  private final AtomicInteger next = new AtomicInteger();

  /** {@code count} connections opened by {@code open(loop, socket factory)}, on the loops of {@code group} in turn. */
  LoopLocal(EventLoopGroup group, int count, BiFunction<EventLoop, ChannelFactory<? extends SocketChannel>, C> open) {
    for (int i = 0; i < count; i++) {
      EventLoop loop = (EventLoop) group.next();
      loops.add(loop);
      connections.add(open.apply(loop, SOCKETS));
    }
  }

  /** Round-robin over the connections of the calling thread's event loop, or over all of them from elsewhere. */
  C pick() {
    int from = Math.floorMod(next.getAndIncrement(), loops.size());
    for (int i = 0; i < loops.size(); i++) {
      int candidate = (from + i) % loops.size();
      if (loops.get(candidate).inEventLoop()) {
        return connections.get(candidate);
      }
    }
    return connections.get(from);
  }

  List<C> all() {
    return connections;
  }
}
