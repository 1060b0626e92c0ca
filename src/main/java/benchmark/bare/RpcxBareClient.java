package benchmark.bare;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import io.netty.channel.EventLoopGroup;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import protocols.core.HostAndPort;
import protocols.rpcx.client.RpcxClientSettings;
import protocols.rpcx.client.RpcxConnection;
import protocols.rpcx.codec.RpcxMessage;
import protocols.rpcx.codec.SerializeType;

/**
 * The project's rpcx client on N connections, with no Gatling in between: each on an event loop of the
 * kind Gatling's are (the protocol's connections run on Gatling's own), a call on a connection of its
 * caller's loop ({@link LoopLocal}).
 */
final class RpcxBareClient implements BareClient {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private static final EventLoopGroup LOOPS = LoopLocal.eventLoops(0, "rpcx-bare");

  private final LoopLocal<RpcxConnection> connections;

  RpcxBareClient(HostAndPort target, int count, boolean shared) {
    connections = new LoopLocal<>(LOOPS, count, (loop, sockets) -> RpcxConnection.open(RpcxClientSettings.of(target), loop, sockets, shared));
  }

  @Override
  public CompletableFuture<Boolean> say() {
    // encoded per call, as the rpcx protocol does with a message payload (and grpc-java's stub always does)
    RpcxMessage request =
        RpcxMessage.request("Hello", "Say")
            .serializeType(SerializeType.PROTOBUF)
            .payload(BenchmarkMessages.request().toByteArray())
            .build();
    return connections
        .pick()
        .call(request, TIMEOUT)
        .thenApply(reply -> {
          try {
            return !reply.isError() && BenchmarkMessages.isOk(BenchmarkMessage.parseFrom(reply.payload()));
          } catch (com.google.protobuf.InvalidProtocolBufferException e) {
            return false;
          }
        });
  }

  @Override
  public void close() {
    connections.all().forEach(RpcxConnection::close);
  }
}
