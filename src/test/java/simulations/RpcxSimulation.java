package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.rpcx.RpcxDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import benchmark.rpcx.RpcxBenchmarkServer;

/**
 * The seed's rpcx benchmark: Hello.Say with the 581-byte protobuf message, over the shared staircase.
 * Against the Java server embedded here, or any rpcx server with {@code -Dtarget=host:port} (such as
 * the Go one of interop/rpcx).
 */
public class RpcxSimulation extends BenchmarkSimulation {

  public RpcxSimulation() {
    super(embedded(s -> RpcxBenchmarkServer.start("127.0.0.1", 0, s.serviceTime())));
    benchmark(
        "rpcx Hello.Say",
        exec(
            rpcx(Staircase.named("Say"))
                .call("Hello", "Say")
                .protobuf(BenchmarkMessage.parser())
                .payload(BenchmarkMessages.request())
                .check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK))),
        rpcx.target(target.address()).connections(settings.connections()));
  }
}
