package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.grpc.GrpcDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.grpc.GrpcBenchmarkServer;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.util.JsonFormat;

/**
 * GrpcSimulation's Hello/Say without generated code: the method by name, typed by proto/benchmark.proto
 * compiled at start, the seed's 581-byte message as JSON, the reply checked with jsonPath.
 */
public class GrpcWithoutStubsSimulation extends BenchmarkSimulation {

  public GrpcWithoutStubsSimulation() throws InvalidProtocolBufferException {
    super(embedded(s -> GrpcBenchmarkServer.start("127.0.0.1", 0, s.serviceTime())));
    String request = JsonFormat.printer().omittingInsignificantWhitespace().print(BenchmarkMessages.request());
    benchmark(
        "gRPC Hello/Say without stubs",
        exec(
            grpc(Staircase.named("Say"))
                .method("benchmark.Hello/Say")
                .json(request)
                .check(jsonPath("$.field1").is(BenchmarkMessages.OK))),
        grpc.target(target.address()).connections(settings.connections()).protoFiles("proto/benchmark.proto"));
  }
}
