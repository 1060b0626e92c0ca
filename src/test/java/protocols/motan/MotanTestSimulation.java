package protocols.motan;

import io.gatling.javaapi.core.Simulation;
import java.util.function.Consumer;

/** A simulation whose setUp each test writes: Gatling instantiates simulations by class name. */
public class MotanTestSimulation extends Simulation {

  private static volatile Consumer<MotanTestSimulation> definition;

  static void define(Consumer<MotanTestSimulation> setUp) {
    definition = setUp;
  }

  public MotanTestSimulation() {
    definition.accept(this);
  }
}
