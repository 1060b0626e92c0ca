package protocols.rpcx;

/**
 * The rpcx DSL, to import statically in a simulation:
 *
 * <pre>{@code
 * import static protocols.rpcx.RpcxDsl.*;
 * import static protocols.core.check.RpcChecks.*;
 *
 * RpcxProtocolBuilder protocol = rpcx.target("localhost:8972").sharedConnections(4);
 * ScenarioBuilder scn = scenario("hello").exec(
 *     rpcx("say").call("Hello", "Say").protobuf(BenchmarkMessage.parser())
 *         .payload(session -> request)
 *         .check(response(BenchmarkMessage::getField1).is("OK")));
 * }</pre>
 */
public final class RpcxDsl {

  private RpcxDsl() {}

  /** The protocol builder: where calls go and how. */
  public static final RpcxProtocolBuilder rpcx = new RpcxProtocolBuilder();

  /** A request, named for the report; the name may use Gatling EL ({@code "say #{id}"}). */
  public static RpcxRequest rpcx(String requestName) {
    if (requestName == null || requestName.isBlank()) {
      throw new IllegalArgumentException("rpcx(name): expected a request name for the report, got " + requestName);
    }
    return new RpcxRequest(requestName);
  }
}
