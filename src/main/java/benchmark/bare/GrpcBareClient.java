package benchmark.bare;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloGrpc;
import io.grpc.ManagedChannel;
import io.gatling.netty.util.Transports;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import protocols.core.HostAndPort;

/**
 * grpc-java's async stub on N plaintext channels, as the grpc protocol opens them: the same grpc-netty,
 * on event loops made as Gatling makes its own (native transport, default count). A call made on a
 * channel's event loop (a chain's next call, sent from the previous one's completion) goes on that
 * channel, as a virtual user's goes on a channel of its own loop and as grpc-java's AsyncClient keeps
 * each outstanding call on its channel: round-robin over all channels would start most calls from
 * another channel's thread, and grpc-netty then queues the write to the channel's loop (a thread hop).
 * Calls from elsewhere (each chain's first) are spread round-robin.
 */
final class GrpcBareClient implements BareClient {

  private static final EventLoopGroup LOOPS = Transports.newEventLoopGroup(true, false, 0, "grpc-bare");
  private static final ChannelFactory<? extends SocketChannel> SOCKETS = Transports.newSocketChannelFactory(true, false);

  private final List<ManagedChannel> channels = new ArrayList<>();
  private final List<HelloGrpc.HelloStub> stubs = new ArrayList<>();
  private final List<EventLoop> loops = new ArrayList<>();
  private final AtomicInteger next = new AtomicInteger();
  private final BenchmarkMessage request = BenchmarkMessages.request();

  GrpcBareClient(HostAndPort target, int connections) {
    for (int i = 0; i < connections; i++) {
      EventLoop loop = (EventLoop) LOOPS.next();
      loops.add(loop);
      ManagedChannel channel =
          NettyChannelBuilder.forAddress(target.host(), target.port())
              .eventLoopGroup(loop)
              .channelFactory(SOCKETS)
              .usePlaintext()
              .directExecutor()
              .build();
      channels.add(channel);
      stubs.add(HelloGrpc.newStub(channel));
    }
  }

  @Override
  public CompletableFuture<Boolean> say() {
    CompletableFuture<Boolean> done = new CompletableFuture<>();
    stubs.get(channelIndex())
        .withDeadlineAfter(10, TimeUnit.SECONDS)
        .say(
            request,
            new StreamObserver<>() {
              @Override
              public void onNext(BenchmarkMessage reply) {
                done.complete(BenchmarkMessages.isOk(reply));
              }

              @Override
              public void onError(Throwable t) {
                done.completeExceptionally(t);
              }

              @Override
              public void onCompleted() {}
            });
    return done;
  }

  /** Round-robin over the channels of the calling thread's event loop, or over all of them from elsewhere. */
  private int channelIndex() {
    int from = Math.floorMod(next.getAndIncrement(), loops.size());
    for (int i = 0; i < loops.size(); i++) {
      int candidate = (from + i) % loops.size();
      if (loops.get(candidate).inEventLoop()) {
        return candidate;
      }
    }
    return from;
  }

  @Override
  public void close() throws InterruptedException {
    for (ManagedChannel channel : channels) {
      channel.shutdownNow().awaitTermination(1, TimeUnit.SECONDS);
    }
  }
}
