package benchmark.bare;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloGrpc;
import io.grpc.ManagedChannel;
import io.gatling.netty.util.Transports;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import protocols.core.HostAndPort;

/**
 * grpc-java's async stub on N plaintext channels used round-robin, as the grpc protocol opens them: the
 * same grpc-netty, on event loops made as Gatling makes its own (native transport, default count).
 */
final class GrpcBareClient implements BareClient {

  private static final EventLoopGroup LOOPS = Transports.newEventLoopGroup(true, false, 0, "grpc-bare");
  private static final ChannelFactory<? extends SocketChannel> SOCKETS = Transports.newSocketChannelFactory(true, false);

  private final List<ManagedChannel> channels = new ArrayList<>();
  private final List<HelloGrpc.HelloStub> stubs = new ArrayList<>();
  private final AtomicInteger next = new AtomicInteger();
  private final BenchmarkMessage request = BenchmarkMessages.request();

  GrpcBareClient(HostAndPort target, int connections) {
    for (int i = 0; i < connections; i++) {
      ManagedChannel channel =
          NettyChannelBuilder.forAddress(target.host(), target.port())
              .eventLoopGroup(LOOPS.next())
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
    stubs.get(Math.floorMod(next.getAndIncrement(), stubs.size()))
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

  @Override
  public void close() throws InterruptedException {
    for (ManagedChannel channel : channels) {
      channel.shutdownNow().awaitTermination(1, TimeUnit.SECONDS);
    }
  }
}
