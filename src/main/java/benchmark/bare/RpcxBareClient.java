package benchmark.bare;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import protocols.core.HostAndPort;
import protocols.rpcx.client.RpcxClientSettings;
import protocols.rpcx.client.RpcxConnection;
import protocols.rpcx.codec.RpcxMessage;
import protocols.rpcx.codec.SerializeType;

/** The project's rpcx client on N connections used round-robin, with no Gatling in between. */
final class RpcxBareClient implements BareClient {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final List<RpcxConnection> connections = new ArrayList<>();
  private final AtomicInteger next = new AtomicInteger();

  RpcxBareClient(HostAndPort target, int count) {
    for (int i = 0; i < count; i++) {
      connections.add(RpcxConnection.open(RpcxClientSettings.of(target)));
    }
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
        .get(Math.floorMod(next.getAndIncrement(), connections.size()))
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
    connections.forEach(RpcxConnection::close);
  }
}
