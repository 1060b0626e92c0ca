package benchmark.grpc;

import static org.junit.jupiter.api.Assertions.*;

import benchmark.BenchmarkMessages;
import benchmark.pb.HelloStreamsGrpc;
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

/** grpc.testing.BenchmarkService/UnaryCall and HelloStreams on the gRPC benchmark server, called with plain blocking stubs. */
class GrpcBenchmarkServerTest {

  private static <T> T onServer(Function<BenchmarkServiceGrpc.BenchmarkServiceBlockingStub, T> call) throws Exception {
    return onChannel(channel -> call.apply(BenchmarkServiceGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)));
  }

  private static <T> T onChannel(Function<ManagedChannel, T> call) throws Exception {
    try (GrpcBenchmarkServer server = GrpcBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO)) {
      ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
      try {
        return call.apply(channel);
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

  @Test
  void serverStreamSendsAsManyRepliesAsTheRequestsField2() throws Exception {
    int replies =
        onChannel(channel -> {
          var stream = HelloStreamsGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
              .serverStream(BenchmarkMessages.request().toBuilder().setField2(3).build());
          int n = 0;
          while (stream.hasNext()) {
            assertEquals(BenchmarkMessages.OK, stream.next().getField1());
            n++;
          }
          return n;
        });

    assertEquals(3, replies);
  }

  @Test
  void serverStreamRefusesANegativeCount() throws Exception {
    StatusRuntimeException refused =
        onChannel(channel -> assertThrows(StatusRuntimeException.class, () ->
            HelloStreamsGrpc.newBlockingStub(channel).withDeadlineAfter(10, TimeUnit.SECONDS)
                .serverStream(BenchmarkMessages.request().toBuilder().setField2(-1).build()).hasNext()));

    assertEquals(Status.Code.INVALID_ARGUMENT, refused.getStatus().getCode());
    assertTrue(refused.getStatus().getDescription().contains("field2 is the number of replies, 0 to 1000000, got -1"), refused.getStatus().toString());
  }
}
