package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.grpc.GrpcDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.grpc.GrpcBenchmarkServer;
import benchmark.pb.HelloGrpc;
import java.util.concurrent.locks.LockSupport;

/**
 * GrpcSimulation with an injector made too slow on purpose: each virtual user holds its Gatling event
 * loop for {@code -DinjectorCostMillis} (default 5) before its call, so a rate above event loops / cost
 * cannot be kept. For the test that such a run says so.
 */
public class SlowInjectorSimulation extends BenchmarkSimulation {

  public SlowInjectorSimulation() {
    super(embedded(s -> GrpcBenchmarkServer.start("127.0.0.1", 0, s.serviceTime())));
    long costNanos = Long.getLong("injectorCostMillis", 5) * 1_000_000;
    benchmark(
        "gRPC Hello/Say, slow injector",
        exec(session -> {
              LockSupport.parkNanos(costNanos);
              return session;
            })
            .exec(grpc(Staircase.named("Say")).unary(HelloGrpc.getSayMethod()).payload(BenchmarkMessages.request())),
        grpc.target(target.address()).connections(settings.connections()));
  }
}
