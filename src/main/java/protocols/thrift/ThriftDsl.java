package protocols.thrift;

/**
 * The Thrift DSL, to import statically in a simulation:
 *
 * <pre>{@code
 * import static protocols.thrift.ThriftDsl.*;
 * import static protocols.core.check.RpcChecks.*;
 *
 * ThriftProtocolBuilder protocol = thrift.target("localhost:9090").sharedConnections(64);
 * ScenarioBuilder scn = scenario("greeter").exec(
 *     thrift("say").service(Greeter.AsyncClient::new).call(Greeter.AsyncClient::say)
 *         .payload(session -> request)
 *         .check(response(BenchmarkMessage::getField1).is("OK")));
 * }</pre>
 */
public final class ThriftDsl {

  private ThriftDsl() {}

  /** The protocol builder: where calls go and how. */
  public static final ThriftProtocolBuilder thrift = new ThriftProtocolBuilder();

  /** A request, named for the report; the name may use Gatling EL ({@code "say #{id}"}). */
  public static ThriftRequest thrift(String requestName) {
    return new ThriftRequest(requestName);
  }
}
