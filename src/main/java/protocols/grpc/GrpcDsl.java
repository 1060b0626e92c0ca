package protocols.grpc;

/**
 * The gRPC DSL, to import statically in a simulation:
 *
 * <pre>{@code
 * import static protocols.grpc.GrpcDsl.*;
 * import static protocols.core.check.RpcChecks.*;
 *
 * GrpcProtocolBuilder protocol = grpc.target("localhost:50051");
 * ScenarioBuilder scn = scenario("hello").exec(
 *     grpc("say").unary(HelloGrpc.getSayMethod())
 *         .payload(session -> request)
 *         .check(response(BenchmarkMessage::getField1).is("OK")));
 * }</pre>
 */
public final class GrpcDsl {

  private GrpcDsl() {}

  /** The protocol builder: where calls go and how. */
  public static final GrpcProtocolBuilder grpc = new GrpcProtocolBuilder();

  /** A request, named for the report; the name may use Gatling EL ({@code "say #{id}"}). */
  public static GrpcRequest grpc(String requestName) {
    return new GrpcRequest(requestName);
  }
}
