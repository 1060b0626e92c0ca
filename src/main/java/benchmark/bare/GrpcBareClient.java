package benchmark.bare;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloGrpc;
import io.grpc.ManagedChannel;
import io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.StreamObserver;
import io.netty.channel.EventLoopGroup;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import protocols.core.HostAndPort;

/**
 * grpc-java's async stub on N plaintext channels, as the grpc protocol opens them: the same grpc-netty,
 * each channel on an event loop of its own kind, a call on a channel of its caller's loop ({@link LoopLocal}).
 */
final class GrpcBareClient implements BareClient {

  private static final EventLoopGroup LOOPS = LoopLocal.eventLoops(0, "grpc-bare");

  private record Channel(ManagedChannel channel, HelloGrpc.HelloStub stub) {}

  private final LoopLocal<Channel> channels;
  private final BenchmarkMessage request = BenchmarkMessages.request();

  GrpcBareClient(HostAndPort target, int connections) {
    channels = new LoopLocal<>(LOOPS, connections, (loop, sockets) -> {
      ManagedChannel channel =
          NettyChannelBuilder.forAddress(target.host(), target.port())
              .eventLoopGroup(loop)
              .channelFactory(sockets)
              .usePlaintext()
              .directExecutor()
              .build();
      return new Channel(channel, HelloGrpc.newStub(channel));
    });
  }

  @Override
  public CompletableFuture<Boolean> say() {
    CompletableFuture<Boolean> done = new CompletableFuture<>();
    channels.pick().stub()
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
    for (Channel channel : channels.all()) {
      channel.channel().shutdownNow().awaitTermination(1, TimeUnit.SECONDS);
    }
  }
}
