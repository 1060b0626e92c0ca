package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;

import benchmark.LoadSettings;
import benchmark.RateSettings;
import benchmark.ServiceTime;
import benchmark.Stall;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ProtocolBuilder;
import io.gatling.javaapi.core.Simulation;
import java.util.function.Function;

/**
 * What every framework's benchmark simulation shares: the settings, the staircase, the target (the
 * framework's benchmark server started here, or {@code -Dtarget}) and the assertion that no call
 * failed. A subclass only says how to call {@code Say} and through which protocol.
 */
public abstract class BenchmarkSimulation extends Simulation {

  protected final LoadSettings settings = LoadSettings.fromSystemProperties();
  protected final Staircase staircase = new Staircase(settings);
  protected final Target target;
  /** {@code -Drate}/{@code -Drates}: a fixed call rate instead of the staircase. */
  protected final RateSettings rates = RateSettings.from(System.getProperties(), settings);

  /** {@code target} chooses where the calls go, from the settings: usually {@link #embedded}. */
  protected BenchmarkSimulation(Function<LoadSettings, Target> target) {
    Stall stall = Stall.parse(System.getProperty("stall"), "-Dstall");
    if (!stall.none() && !settings.embedded()) {
      throw new IllegalArgumentException("-Dstall=" + stall + " stalls the embedded server; give --stall to the server at -Dtarget");
    }
    ServiceTime.stall(stall);
    this.target = target.apply(settings);
  }

  /** {@code -Dtarget}, or else the framework's benchmark server that {@code server} starts here. */
  protected static Function<LoadSettings, Target> embedded(Target.Embedded server) {
    return settings -> Target.of(settings, server);
  }

  /**
   * Sets the simulation up: {@code call} repeated over the staircase through {@code protocol}. A user's
   * last iteration runs to its end (Gatling's exitASAP off): cut, a stream would be left open (a KO
   * each); and where an iteration is one call, a cut changes nothing but has Gatling read the loop's
   * condition a second time before every call, a cost of this harness in every figure of bench/.
   */
  protected void benchmark(String scenarioName, ChainBuilder call, ProtocolBuilder protocol) {
    System.out.println(getClass().getSimpleName() + ": " + settings + (rates.paced() ? ", " + rates : "")
        + (ServiceTime.stall().none() ? "" : ", stall " + ServiceTime.stall()) + " -> " + target);
    setUp(rates.paced()
            ? new RateSteps(rates).population(scenarioName, call, timeout(protocol))
            : staircase.population(scenarioName, call, false))
        .protocols(protocol)
        .assertions(global().failedRequests().count().is(0L));
  }

  /** The timeout of a call that sets none: the longest a reply can take, which sizes a paced pool. */
  private static java.time.Duration timeout(ProtocolBuilder protocol) {
    return protocol.protocol() instanceof protocols.core.RpcProtocol rpc ? rpc.defaultTimeout() : java.time.Duration.ofSeconds(10);
  }

  @Override
  public void after() {
    try {
      ServiceTime.stall(Stall.NONE);
      target.close();
    } catch (Exception e) {
      System.err.println("stopping the embedded server failed: " + e);
    }
  }
}
