package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.LoadSettings;
import benchmark.grpc.GrpcBenchmarkServer;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloGrpc;
import io.gatling.javaapi.core.Simulation;
import protocols.grpc.GrpcProtocolBuilder;

/** The seed's gRPC benchmark: Hello/Say with the 581-byte message, over the shared staircase. */
public class GrpcSimulation extends Simulation {

  private final LoadSettings settings = LoadSettings.fromSystemProperties();
  private final Staircase staircase = new Staircase(settings);
  private final Target target =
      Target.of(settings, s -> GrpcBenchmarkServer.start("127.0.0.1", 0, s.serviceTime()));

  private final GrpcProtocolBuilder protocol =
      grpc.target(target.address()).connections(settings.connections());

  {
    System.out.println("GrpcSimulation: " + settings + " -> " + target);
    setUp(
            staircase.population(
                "gRPC Hello/Say",
                exec(
                    grpc(Staircase.named("Say"))
                        .unary(HelloGrpc.getSayMethod())
                        .payload(BenchmarkMessages.request())
                        .check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK)))))
        .protocols(protocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void before() {
    staircase.start();
  }

  @Override
  public void after() {
    try {
      target.close();
    } catch (Exception e) {
      System.err.println("stopping the embedded server failed: " + e);
    }
  }
}
