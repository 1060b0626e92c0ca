package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.rpcx.RpcxDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.LoadSettings;
import benchmark.pb.BenchmarkMessage;
import benchmark.rpcx.RpcxBenchmarkServer;
import io.gatling.javaapi.core.Simulation;
import protocols.rpcx.RpcxProtocolBuilder;

/**
 * The seed's rpcx benchmark: Hello.Say with the 581-byte protobuf message, over the shared staircase.
 * Against the Java server embedded here, or any rpcx server with {@code -Dtarget=host:port} (such as
 * the Go one of interop/rpcx).
 */
public class RpcxSimulation extends Simulation {

  private final LoadSettings settings = LoadSettings.fromSystemProperties();
  private final Staircase staircase = new Staircase(settings);
  private final Target target =
      Target.of(settings, s -> RpcxBenchmarkServer.start("127.0.0.1", 0, s.serviceTime()));

  private final RpcxProtocolBuilder protocol =
      rpcx.target(target.address()).connections(settings.connections());

  {
    System.out.println("RpcxSimulation: " + settings + " -> " + target);
    setUp(
            staircase.population(
                "rpcx Hello.Say",
                exec(
                    rpcx(Staircase.named("Say"))
                        .call("Hello", "Say")
                        .protobuf(BenchmarkMessage.parser())
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
