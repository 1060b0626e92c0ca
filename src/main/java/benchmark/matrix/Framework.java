package benchmark.matrix;

import java.util.List;

/**
 * A framework of the benchmark: its benchmark server (run in a JVM of its own) and its simulation (run in
 * another). Classes are named, not referenced: the simulations live in the test sources.
 */
public record Framework(String id, String label, String serverMainClass, String simulationClass) {

  public static final List<Framework> ALL =
      List.of(
          new Framework("rpcx", "rpcx", "benchmark.rpcx.RpcxBenchmarkServer", "simulations.RpcxSimulation"),
          new Framework("grpc", "gRPC", "benchmark.grpc.GrpcBenchmarkServer", "simulations.GrpcSimulation"),
          new Framework("thrift", "Thrift", "benchmark.thrift.ThriftBenchmarkServer", "simulations.ThriftSimulation"),
          new Framework("dubbo", "Dubbo", "benchmark.dubbo.DubboBenchmarkServer", "simulations.DubboSimulation"),
          new Framework("motan", "Motan", "benchmark.motan.MotanBenchmarkServer", "simulations.MotanSimulation"));

  public static Framework byId(String id) {
    return ALL.stream()
        .filter(f -> f.id.equals(id.trim()))
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "-Dframeworks: unknown framework '" + id + "'; expected some of rpcx,grpc,thrift,dubbo,motan"));
  }

  /** Whether this build has both classes. */
  public boolean available(ClassLoader loader) {
    try {
      Class.forName(serverMainClass, false, loader);
      Class.forName(simulationClass, false, loader);
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
