package protocols.dubbo;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.BiFunction;
import java.util.regex.Pattern;
import org.apache.dubbo.rpc.RpcContext;
import protocols.core.RpcRequestBuilder.Common;

/** A named Dubbo request whose service is not chosen yet: {@link #service} or {@link #generic}. */
public final class DubboRequest {

  private static final Pattern JAVA_NAME = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*");
  private static final Pattern TYPE_NAME = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$.]*(\\[])*|\\[+([BCDFIJSZ]|L[^;]+;)");

  private final String requestName;

  DubboRequest(String requestName) {
    this.requestName = requestName;
  }

  /** Calls of a Java interface the test has on its classpath (the provider's API jar). */
  public <S> Service<S> service(Class<S> type) {
    if (type == null || !type.isInterface()) {
      throw new IllegalArgumentException(
          "dubbo(\"" + requestName + "\").service: expected a Java interface, got " + (type == null ? "null" : type.getName()));
    }
    return new Service<>(requestName, type, ServiceKey.typed(type));
  }

  /** Calls of an interface known by name only: generic invocation, no interface jar needed. */
  public Generic generic(String interfaceName) {
    if (interfaceName == null || !JAVA_NAME.matcher(interfaceName.trim()).matches()) {
      throw new IllegalArgumentException(
          "dubbo(\"" + requestName + "\").generic: expected a fully qualified interface name such as com.example.GreeterService, got " + interfaceName);
    }
    return new Generic(requestName, ServiceKey.generic(interfaceName.trim()));
  }

  /** A typed service whose method is not chosen yet. */
  public static final class Service<S> {
    private final String requestName;
    private final Class<S> type;
    private final ServiceKey key;

    Service(String requestName, Class<S> type, ServiceKey key) {
      this.requestName = requestName;
      this.type = type;
      this.key = key;
    }

    /** The provider's service group, when it sets one. */
    public Service<S> group(String group) {
      return new Service<>(requestName, type, key.withGroup(nonBlank(requestName, group, "group")));
    }

    /** The provider's service version, when it sets one. */
    public Service<S> version(String version) {
      return new Service<>(requestName, type, key.withVersion(nonBlank(requestName, version, "version")));
    }

    /**
     * A method that returns a future ({@code CompletableFuture<R> sayAsync(byte[])}), called with the
     * request the payload builds: {@code .method(Greeter::sayAsync).payload(session -> bytes)}.
     */
    public <Req, Res> DubboServiceRequestBuilder<S, Req, Res> method(
        DubboServiceRequestBuilder.Invocation<S, Req, Res> invocation) {
      return new DubboServiceRequestBuilder<>(Common.named(requestName), key, type, required(invocation), "\"" + requestName + "\"");
    }

    /**
     * A method that returns its result directly ({@code byte[] say(byte[])}): it is called in Dubbo's
     * asynchronous mode ({@code RpcContext.asyncCall}), so no thread waits for the reply. The function
     * must call exactly one method of the service.
     */
    public <Req, Res> DubboServiceRequestBuilder<S, Req, Res> syncMethod(BiFunction<S, Req, Res> call) {
      required(call);
      DubboServiceRequestBuilder.Invocation<S, Req, Res> async =
          (service, request) -> RpcContext.getServiceContext().asyncCall(() -> call.apply(service, request));
      return new DubboServiceRequestBuilder<>(Common.named(requestName), key, type, async, "\"" + requestName + "\"");
    }

    /**
     * A call written with the session at hand, for methods of several arguments:
     * {@code .call((greeter, session) -> greeter.greetAsync(session.getString("name"), 3))}. The
     * method must return a future.
     */
    public <Res> DubboServiceRequestBuilder<S, io.gatling.javaapi.core.Session, Res> call(
        BiFunction<S, io.gatling.javaapi.core.Session, ? extends CompletionStage<Res>> call) {
      required(call);
      DubboServiceRequestBuilder.Invocation<S, io.gatling.javaapi.core.Session, Res> invocation =
          (service, session) -> call.apply(service, session);
      return new DubboServiceRequestBuilder<>(Common.named(requestName), key, type, invocation, "\"" + requestName + "\"")
          .payload(session -> session);
    }

    private <T> T required(T function) {
      if (function == null) {
        throw new IllegalArgumentException("dubbo(\"" + requestName + "\"): the method call is null");
      }
      return function;
    }
  }

  /** A generic service whose method is not chosen yet. */
  public static final class Generic {
    private final String requestName;
    private final ServiceKey key;

    Generic(String requestName, ServiceKey key) {
      this.requestName = requestName;
      this.key = key;
    }

    /** The provider's service group, when it sets one. */
    public Generic group(String group) {
      return new Generic(requestName, key.withGroup(nonBlank(requestName, group, "group")));
    }

    /** The provider's service version, when it sets one. */
    public Generic version(String version) {
      return new Generic(requestName, key.withVersion(nonBlank(requestName, version, "version")));
    }

    /**
     * The method and its parameter types as Java names: {@code "byte[]"}, {@code "java.lang.String"},
     * {@code "int"}, {@code "com.example.Order"}.
     */
    public DubboGenericRequestBuilder method(String name, String... parameterTypes) {
      if (name == null || !JAVA_NAME.matcher(name).matches() || name.contains(".")) {
        throw new IllegalArgumentException(
            "dubbo(\"" + requestName + "\").generic(...).method: expected a method name such as sayHello, got " + name);
      }
      for (String type : parameterTypes) {
        if (type == null || !TYPE_NAME.matcher(type.trim()).matches()) {
          throw new IllegalArgumentException(
              "dubbo(\"" + requestName + "\").generic(...).method(\"" + name + "\", ...): expected parameter types as Java names such as java.lang.String, int or byte[], got " + type);
        }
      }
      List<String> types = Arrays.stream(parameterTypes).map(String::trim).toList();
      return new DubboGenericRequestBuilder(Common.named(requestName), key, name, types);
    }
  }

  private static String nonBlank(String requestName, String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(
          "dubbo(\"" + requestName + "\")." + what + ": expected a non-empty " + what + ", got " + value);
    }
    return value.trim();
  }
}
