package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import protocols.core.Probe;

/**
 * What the injector costs with no client and no server at all: the staircase's users call a framework
 * that answers at once, in memory (the bridge's test probe), with the same naming, check and record as
 * the benchmark simulations. Its {@code cpuPerCall} in {@code rpc-latency.json} is the floor every
 * framework's Gatling protocol starts from: Gatling's session, loop, check and stats work plus this
 * project's bridge, per call.
 *
 * <pre>mvn gatling:test -Dsimulation=InjectorFloorSimulation -Dlevels=1000 -Dwarmup=5s -Dhold=20s -Dconnections=4</pre>
 */
public class InjectorFloorSimulation extends BenchmarkSimulation {

  public InjectorFloorSimulation() {
    super(settings -> Target.none());
    benchmark(
        "in-memory Say",
        exec(
            Probe.probe(Staircase.named("Say"))
                .payload("OK")
                .answer((request, session) -> CompletableFuture.completedFuture(request))
                .check(response(reply -> reply).is("OK"))),
        Probe.protocol(Duration.ofSeconds(10), settings.connections()));
  }
}
