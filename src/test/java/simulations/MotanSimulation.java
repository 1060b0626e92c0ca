package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.motan.MotanDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.LoadSettings;
import benchmark.motan.BenchmarkServiceAsync;
import benchmark.motan.MotanBenchmarkServer;
import benchmark.pb.BenchmarkMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import io.gatling.javaapi.core.Simulation;
import protocols.motan.MotanProtocolBuilder;

/**
 * The seed's Motan benchmark: {@code byte[] say(byte[])} carrying the 581-byte protobuf message, over
 * the shared staircase. Each client holds one connection, so {@code -Dconnections} counts connections.
 */
public class MotanSimulation extends Simulation {

  private static final byte[] REQUEST = BenchmarkMessages.request().toByteArray();

  private final LoadSettings settings = LoadSettings.fromSystemProperties();
  private final Staircase staircase = new Staircase(settings);
  private final Target target =
      Target.of(settings, s -> MotanBenchmarkServer.start(0, s.serviceTime()));

  private final MotanProtocolBuilder protocol =
      motan
          .target(target.address())
          .connections(settings.connections())
          .minClientConnections(1);

  {
    System.out.println("MotanSimulation: " + settings + " -> " + target);
    setUp(
            staircase.population(
                "Motan say",
                exec(
                    motan(Staircase.named("Say"))
                        .service(BenchmarkServiceAsync.class)
                        .call(BenchmarkServiceAsync::sayAsync, byte[].class)
                        .payload(REQUEST)
                        .check(response(MotanSimulation::field1).is(BenchmarkMessages.OK)))))
        .protocols(protocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  private static String field1(byte[] reply) {
    try {
      return BenchmarkMessage.parseFrom(reply).getField1();
    } catch (InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("the reply is not a BenchmarkMessage: " + e.getMessage(), e);
    }
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
      System.err.println("stopping the embedded provider failed: " + e);
    }
  }
}
