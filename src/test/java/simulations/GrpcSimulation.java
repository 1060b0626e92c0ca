package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.grpc.GrpcBenchmarkServer;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloGrpc;

/** The seed's gRPC benchmark: Hello/Say with the 581-byte message, over the shared staircase. */
public class GrpcSimulation extends BenchmarkSimulation {

  public GrpcSimulation() {
    super(embedded(s -> GrpcBenchmarkServer.start("127.0.0.1", 0, s.serviceTime())));
    benchmark(
        "gRPC Hello/Say",
        exec(
            grpc(Staircase.named("Say"))
                .unary(HelloGrpc.getSayMethod())
                .payload(BenchmarkMessages.request())
                .check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK))),
        grpc.target(target.address()).connections(settings.connections()));
  }
}
