package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import benchmark.grpc.GrpcBenchmarkServer;
import benchmark.grpc.UnaryCallMessages;
import benchmark.pb.grpctesting.BenchmarkServiceGrpc;
import benchmark.pb.grpctesting.SimpleResponse;

/**
 * grpc-java's own benchmark call, grpc.testing.BenchmarkService/UnaryCall, with the request its
 * AsyncClient sends (a 581-byte body, a 527-byte reply body asked for), over the shared staircase: the
 * Gatling side of bench/peers.sh's comparison with that client, on the same server.
 *
 * <p>The request is named {@code Say}, like every benchmark simulation's measured request, so the bench
 * commands read its figures alike.
 */
public class GrpcUnaryCallSimulation extends BenchmarkSimulation {

  public GrpcUnaryCallSimulation() {
    super(embedded(s -> GrpcBenchmarkServer.start("127.0.0.1", 0, s.serviceTime())));
    benchmark(
        "gRPC BenchmarkService/UnaryCall",
        exec(
            grpc(Staircase.named("Say"))
                .unary(BenchmarkServiceGrpc.getUnaryCallMethod())
                .payload(UnaryCallMessages.request())
                .check(response((SimpleResponse r) -> r.getPayload().getBody().size()).is(UnaryCallMessages.SERVER_PAYLOAD))),
        grpc.target(target.address()).connections(settings.connections()));
  }
}
