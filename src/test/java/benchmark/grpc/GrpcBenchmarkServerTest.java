package benchmark.grpc;

import static org.junit.jupiter.api.Assertions.*;

import benchmark.pb.grpctesting.BenchmarkServiceGrpc;
import benchmark.pb.grpctesting.SimpleRequest;
import benchmark.pb.grpctesting.SimpleResponse;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** grpc.testing.BenchmarkService/UnaryCall on the gRPC benchmark server, called with a plain blocking stub. */
class GrpcBenchmarkServerTest {

  private static <T> T onServer(Function<BenchmarkServiceGrpc.BenchmarkServiceBlockingStub, T> call) throws Exception {
    try (GrpcBenchmarkServer server = GrpcBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO)) {
      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
      try {
        return call.apply(BenchmarkServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS));
      } finally {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void unaryCallAnswersWithABodyOfTheRequestedSize() throws Exception {
    SimpleResponse reply = onServer(stub -> stub.unaryCall(UnaryCallMessages.request()));

    assertEquals(527, UnaryCallMessages.SERVER_PAYLOAD, "the seed's encoded reply");
    assertEquals(581, UnaryCallMessages.CLIENT_PAYLOAD, "the seed's encoded request");
    assertEquals(527, reply.getPayload().getBody().size());
  }

  @Test
  void unaryCallRefusesANegativeResponseSize() throws Exception {
    StatusRuntimeException refused = onServer(stub -> assertThrows(StatusRuntimeException.class,
        () -> stub.unaryCall(SimpleRequest.newBuilder().setResponseSize(-1).build())));

    assertEquals(Status.Code.INVALID_ARGUMENT, refused.getStatus().getCode());
    assertTrue(refused.getStatus().getDescription().contains("response_size -1"), refused.getStatus().toString());
  }
}
