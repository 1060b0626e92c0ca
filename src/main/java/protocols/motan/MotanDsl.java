package protocols.motan;

/**
 * The Motan DSL, to import statically in a simulation:
 *
 * <pre>{@code
 * import static protocols.motan.MotanDsl.*;
 * import static protocols.core.check.RpcChecks.*;
 *
 * MotanProtocolBuilder protocol = motan.target("localhost:8002").requestTimeout(Duration.ofSeconds(2));
 * ScenarioBuilder scn = scenario("calculator").exec(
 *     motan("add")
 *         .service(CalculatorAsync.class)
 *         .call((CalculatorAsync calc, int[] numbers) -> calc.addAsync(numbers[0], numbers[1]), Integer.class)
 *         .payload(session -> new int[] {session.getInt("a"), 2})
 *         .check(response((Integer sum) -> sum).gt(0)));
 * }</pre>
 */
public final class MotanDsl {

  private MotanDsl() {}

  /** The protocol builder: where calls go and how. */
  public static final MotanProtocolBuilder motan = new MotanProtocolBuilder();

  /** A request, named for the report; the name may use Gatling EL ({@code "add #{id}"}). */
  public static MotanRequest motan(String requestName) {
    return new MotanRequest(requestName);
  }
}
