package protocols.rpcx;

import io.gatling.javaapi.core.Simulation;
import java.util.function.Consumer;

/** A simulation whose setUp each test writes: Gatling instantiates simulations by class name. */
public class RpcxTestSimulation extends Simulation {

  private static volatile Consumer<RpcxTestSimulation> definition;

  public static void define(Consumer<RpcxTestSimulation> setUp) {
    definition = setUp;
  }

  public RpcxTestSimulation() {
    definition.accept(this);
  }
}
