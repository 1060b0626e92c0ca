package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import calculator.pb.CalculatorGrpc;
import calculator.pb.Operands;
import calculator.pb.Result;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;

/**
 * A {@code dns:///} target with round_robin spreads calls over every address of the name. Here no
 * name resolves to two loopback addresses, so the scenario runs in a JVM of its own whose resolver
 * reads a hosts file of the test ({@code -Djdk.net.hosts.file}): grpc-java's own dns resolver, real
 * name resolution, two real servers on one port at 127.0.0.1 and 127.0.0.2.
 */
class GrpcDnsTargetsTest {

  private static final String NAME = "replicas.gatling-rpc.test";

  @TempDir Path temp;

  @Test
  void roundRobinOverADnsNameSendsCallsToEveryAddress() throws Exception {
    try (Replicas replicas = Replicas.start()) {
      Path hosts = Files.writeString(temp.resolve("hosts"), "127.0.0.1 " + NAME + "\n127.0.0.2 " + NAME + "\n");

      Path log = temp.resolve("scenario.log");
      List<String> command = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString()));
      // this JVM's options (Gatling's --add-opens, the heap), then the hosts file
      command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments().stream().filter(a -> a.startsWith("--add-opens") || a.startsWith("-Xm")).toList());
      command.addAll(
          List.of(
              "-Djdk.net.hosts.file=" + hosts,
              "-cp", System.getProperty("java.class.path"),
              Scenario.class.getName(),
              "dns:///" + NAME + ":" + replicas.port));
      Process scenario =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(log.toFile())
              .start();
      boolean ended = scenario.waitFor(120, TimeUnit.SECONDS);
      if (!ended) {
        scenario.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
      String output = Files.readString(log);

      assertTrue(ended, "the scenario's JVM did not end within 120 s: " + tail(output));
      assertEquals(0, scenario.exitValue(), tail(output));
      assertTrue(output.contains("ok 10 ko 0"), tail(output));
      int one = replicas.first.calls.get();
      int two = replicas.second.calls.get();
      assertTrue(one >= 3 && two >= 3, one + " calls on 127.0.0.1 and " + two + " on 127.0.0.2: " + tail(output));
    }
  }

  @Test
  void aDnsNameStandsAloneAmongTargets() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> grpc.targets("round_robin", "dns:///" + NAME + ":1", "127.0.0.1:2"));
    assertTrue(e.getMessage().contains("a dns:/// name stands for all its addresses: give it alone"), e.getMessage());
  }

  @Test
  void anUnknownLoadBalancingPolicyIsRefusedNamingIt() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> grpc.target("dns:///" + NAME + ":1").loadBalancing("random"));
    assertTrue(e.getMessage().contains("grpc.loadBalancing: expected the load-balancing policy round_robin or pick_first, got random"), e.getMessage());
  }

  private static String tail(String output) {
    return output.length() > 4000 ? output.substring(output.length() - 4000) : output;
  }

  /** Two servers on one free port, at 127.0.0.1 and 127.0.0.2. */
  private record Replicas(CalculatorServer first, CalculatorServer second, int port) implements AutoCloseable {

    static Replicas start() throws Exception {
      IOException last = null;
      for (int attempt = 0; attempt < 5; attempt++) {
        CalculatorServer first = CalculatorServer.plaintext("127.0.0.1", 0);
        try {
          return new Replicas(first, CalculatorServer.plaintext("127.0.0.2", first.port()), first.port());
        } catch (IOException e) { // the port is taken on 127.0.0.2: another pair
          last = e;
          first.close();
        }
      }
      throw new AssertionError("no free port on both 127.0.0.1 and 127.0.0.2", last);
    }

    @Override
    public void close() throws InterruptedException {
      first.close();
      second.close();
    }
  }

  /** The scenario, in the JVM that resolves the name: ten calls, then its counts on stdout. */
  public static final class Scenario {
    public static void main(String[] args) {
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      scenario("dns")
                          .exec(
                              repeat(10)
                                  .on(
                                      exec(
                                          grpc("add")
                                              .unary(CalculatorGrpc.getAddMethod())
                                              .payload(Operands.newBuilder().setA(2).setB(3).build())
                                              .check(response(Result::getValue).is(5L)))))
                          .injectOpen(atOnceUsers(1)))
                  .protocols(grpc.targets("round_robin", args[0])));
      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());
      System.out.println("ok " + run.ok("add") + " ko " + run.ko("add") + " errors " + run.errors("add"));
      System.exit(run.exitCode);
    }
  }
}
