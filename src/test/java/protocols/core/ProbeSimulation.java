package protocols.core;

import io.gatling.javaapi.core.Simulation;
import java.util.function.Consumer;

/** A simulation whose setUp each test writes: Gatling instantiates simulations by class name. */
public class ProbeSimulation extends Simulation {

  private static volatile Consumer<ProbeSimulation> definition;

  public static void define(Consumer<ProbeSimulation> setUp) {
    definition = setUp;
  }

  public ProbeSimulation() {
    definition.accept(this);
  }
}
