package protocols.dubbo;

/**
 * The Dubbo DSL, to import statically in a simulation:
 *
 * <pre>{@code
 * import static protocols.dubbo.DubboDsl.*;
 * import static protocols.core.check.RpcChecks.*;
 *
 * DubboProtocolBuilder protocol = dubbo.target("localhost:20880");
 *
 * // typed: the provider's interface jar is on the test's classpath
 * dubbo("say").service(GreeterService.class)
 *     .method(GreeterService::sayHelloAsync)          // returns a CompletableFuture
 *     .payload(session -> session.getString("name"))
 *     .check(response((String reply) -> reply).is("Hello Ann"));
 *
 * // generic: the interface by name, no jar needed
 * dubbo("say generic").generic("com.example.GreeterService")
 *     .method("sayHello", "java.lang.String")
 *     .arguments(session -> new Object[] {session.getString("name")});
 * }</pre>
 */
public final class DubboDsl {

  private DubboDsl() {}

  /** The protocol builder: where calls go and how. */
  public static final DubboProtocolBuilder dubbo = new DubboProtocolBuilder();

  /** A request, named for the report; the name may use Gatling EL ({@code "say #{id}"}). */
  public static DubboRequest dubbo(String requestName) {
    return new DubboRequest(requestName);
  }
}
