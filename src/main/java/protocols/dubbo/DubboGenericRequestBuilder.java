package protocols.dubbo;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import org.apache.dubbo.rpc.service.GenericService;
import protocols.core.CallContext;

/**
 * A generic call ({@link GenericService#$invokeAsync}): interface, method and parameter types by name,
 * arguments from the session; no interface jar needed. Arguments are Java values (String, numbers,
 * byte[], Map for a POJO with its fields, List...), and so is the result. Immutable.
 */
public final class DubboGenericRequestBuilder
    extends DubboRequestBuilder<DubboGenericRequestBuilder, Object[], Object> {

  private final String method;
  private final List<String> parameterTypes;

  DubboGenericRequestBuilder(Common<Object[]> common, ServiceKey service, String method, List<String> parameterTypes) {
    super(common, service);
    this.method = method;
    this.parameterTypes = parameterTypes;
  }

  /** The arguments, built from the virtual user's session for every call: same as {@code payload}. */
  public DubboGenericRequestBuilder arguments(Function<io.gatling.javaapi.core.Session, Object[]> arguments) {
    return payload(arguments);
  }

  /** The same arguments for every call. */
  public DubboGenericRequestBuilder arguments(Object... arguments) {
    Object[] fixed = arguments.clone();
    return payload(session -> fixed);
  }

  @Override
  protected DubboGenericRequestBuilder withCommon(Common<Object[]> common) {
    return new DubboGenericRequestBuilder(common, service, method, parameterTypes);
  }

  @Override
  CompletionStage<Object> invoke(DubboClient client, Object[] arguments, CallContext context) {
    Object[] args = arguments == null ? new Object[0] : arguments;
    if (args.length != parameterTypes.size()) {
      throw new IllegalArgumentException(
          callName() + " takes " + parameterTypes.size() + " argument(s), got " + args.length);
    }
    GenericService generic = client.reference(service);
    return generic.$invokeAsync(method, parameterTypes.toArray(String[]::new), args);
  }

  @Override
  String callName() {
    return method + "(" + String.join(", ", parameterTypes) + ") of " + service;
  }
}
