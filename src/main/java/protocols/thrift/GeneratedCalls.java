package protocols.thrift;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.thrift.TException;
import org.apache.thrift.TServiceClient;
import org.apache.thrift.async.AsyncMethodCallback;
import org.apache.thrift.async.TAsyncClient;
import org.apache.thrift.async.TAsyncClientManager;
import org.apache.thrift.async.TAsyncMethodCall;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolDecorator;
import org.apache.thrift.transport.TMemoryInputTransport;
import protocols.core.SelfTimedFuture;
import protocols.thrift.client.ThriftConnection;
import protocols.thrift.codec.ThriftReply;

/**
 * Runs a call of any generated async client ({@code Xxx.AsyncClient}) on a {@link ThriftConnection},
 * with the generated code doing all the encoding and decoding:
 *
 * <ol>
 *   <li>the user's method ({@code Greeter.AsyncClient::say}) runs on a client whose manager only
 *       keeps the generated call object ({@code say_call}) instead of starting libthrift's selector I/O;
 *   <li>its public {@code write_args(TProtocol)} writes the message into the connection's buffer;
 *   <li>the reply is read by the generated synchronous client's {@code recv_say()} ({@code
 *       Greeter.Client}), which returns the result or throws the declared exception or the
 *       {@code TApplicationException}, exactly as libthrift's async client would;
 *   <li>the outcome goes to the callback the user's method handed to the call.
 * </ol>
 *
 * The generated classes are found once per call class, by the names the Thrift compiler gives them.
 */
public final class GeneratedCalls {

  private GeneratedCalls() {}

  /** Takes the generated call object and does nothing else: no thread, no socket. */
  private static final class KeepingManager extends TAsyncClientManager {
    KeepingManager() throws java.io.IOException {
      super();
      stop(); // the constructor starts a selector thread this manager never uses
    }

    @Override
    public void call(TAsyncMethodCall method) {}
  }

  private static final TAsyncClientManager MANAGER;
  private static final VarHandle CURRENT_METHOD;
  private static final VarHandle CALLBACK;

  static {
    try {
      MANAGER = new KeepingManager();
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      CURRENT_METHOD =
          MethodHandles.privateLookupIn(TAsyncClient.class, lookup)
              .findVarHandle(TAsyncClient.class, "___currentMethod", TAsyncMethodCall.class);
      CALLBACK =
          MethodHandles.privateLookupIn(TAsyncMethodCall.class, lookup)
              .findVarHandle(TAsyncMethodCall.class, "callback", AsyncMethodCallback.class);
    } catch (Exception e) {
      throw new ExceptionInInitializerError(
          "this libthrift's async client differs from the one the Thrift protocol was written for"
              + " (TAsyncClient.___currentMethod, TAsyncMethodCall.callback): " + e);
    }
  }

  /** A call class's {@code write_args(TProtocol)}. */
  @FunctionalInterface
  interface WriteArgs {
    void write(TAsyncMethodCall<?> call, TProtocol protocol) throws TException;
  }

  /** A generated synchronous client's constructor. */
  @FunctionalInterface
  interface NewClient {
    TServiceClient create(TProtocol protocol);
  }

  /** A generated synchronous client's {@code recv_x()}: the result (boxed; null for void) or the thrown failure. */
  @FunctionalInterface
  interface Receive {
    Object receive(TServiceClient client) throws Exception;
  }

  /**
   * The generated code of one method: its call class's {@code write_args}, its client's {@code recv_x}
   * (null: a oneway method). Bound once as plain interfaces, so each call is an ordinary (inlinable) call
   * instead of a {@code MethodHandle.invoke} that adapts its types and allocates through a handle.
   */
  private record Method(WriteArgs writeArgs, NewClient newClient, Receive recv) {}

  private static final ClassValue<Method> METHODS =
      new ClassValue<>() {
        @Override
        protected Method computeValue(Class<?> callClass) {
          return method(callClass);
        }
      };

  /**
   * Sends one call: {@code method} is invoked on a fresh generated client (a few fields, so one per
   * call); the result or failure reaches the callback it passed, hence the returned future.
   */
  public static <S extends TAsyncClient, Req, Res> CompletableFuture<Res> send(
      ThriftConnection connection,
      ThriftEncoding encoding,
      ThriftService<S> service,
      ThriftMethod<S, Req, Res> method,
      Req request,
      Duration timeout)
      throws Exception {
    S client = service.create(encoding.factory(), MANAGER, null);
    // the connection's own timer ends a call that has a reply: the bridge then sets no second one
    CompletableFuture<Res> future = new SelfTimedFuture<>();
    ToFuture<Res> toFuture = new ToFuture<>(future);
    method.call(client, request, toFuture);
    TAsyncMethodCall<?> call = (TAsyncMethodCall<?>) CURRENT_METHOD.get(client);
    if (call == null) {
      throw new IllegalArgumentException(
          "the method given to call(...) started no call on the " + client.getClass().getName() + " it was handed");
    }
    @SuppressWarnings("unchecked")
    AsyncMethodCallback<Object> callback = (AsyncMethodCallback<Object>) CALLBACK.get(call);
    Method generated = METHODS.get(call.getClass());
    connection
        .call(protocol -> writeArgs(generated, call, protocol), timeout)
        .whenComplete(
            (reply, failure) -> {
              if (failure != null) {
                callback.onError(failure instanceof Exception e ? e : new RuntimeException(failure));
                return;
              }
              Object result;
              try {
                result = reply == null || generated.recv() == null ? null : receive(generated, reply, encoding);
              } catch (Exception e) {
                callback.onError(e);
                return;
              }
              callback.onComplete(result);
            });
    // a callback of the user's own around ours might never complete it
    return generated.recv() != null && (Object) callback == toFuture ? future : notSelfTimed(future);
  }

  /**
   * For a oneway call, which ends once written (no timer of the connection bounds a write), or one whose
   * outcome goes through a callback of the user's: the bridge's backstop bounds it.
   */
  private static <T> CompletableFuture<T> notSelfTimed(CompletableFuture<T> call) {
    CompletableFuture<T> plain = new CompletableFuture<>();
    call.whenComplete((value, failure) -> {
      if (failure == null) {
        plain.complete(value);
      } else {
        plain.completeExceptionally(failure);
      }
    });
    return plain;
  }

  private static void writeArgs(Method generated, TAsyncMethodCall<?> call, TProtocol protocol) throws TException {
    generated.writeArgs().write(call, protocol);
  }

  private static Object receive(Method generated, ThriftReply reply, ThriftEncoding encoding) throws Exception {
    TProtocol protocol = new SequenceZero(encoding.factory().getProtocol(new TMemoryInputTransport(reply.message())));
    return generated.recv().receive(generated.newClient().create(protocol));
  }

  private static Method method(Class<?> callClass) {
    String callName = callClass.getSimpleName();
    Class<?> asyncClient = callClass.getEnclosingClass();
    Class<?> serviceClass = asyncClient == null ? null : asyncClient.getEnclosingClass();
    if (!callName.endsWith("_call") || serviceClass == null) {
      throw new IllegalArgumentException(
          callClass.getName() + " is not a call class the Thrift compiler generates (Service.AsyncClient.method_call)");
    }
    String name = callName.substring(0, callName.length() - "_call".length());
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    try {
      MethodHandle writeArgs =
          lookup.findVirtual(callClass, "write_args", MethodType.methodType(void.class, TProtocol.class));
      Class<?> syncClient = Class.forName(serviceClass.getName() + "$Client", true, callClass.getClassLoader());
      MethodHandle newClient =
          lookup.findConstructor(syncClient, MethodType.methodType(void.class, TProtocol.class));
      MethodHandle recv = null;
      for (java.lang.reflect.Method m : syncClient.getMethods()) {
        if (m.getName().equals("recv_" + name) && m.getParameterCount() == 0) {
          recv = lookup.unreflect(m);
        }
      }
      // no recv_x: a oneway method, which has no reply
      return new Method(
          writeArgs(writeArgs, true),
          newClient(newClient, true),
          recv == null ? null : receive(recv, true));
    } catch (ReflectiveOperationException e) {
      throw new IllegalArgumentException(
          "cannot find the generated code of " + serviceClass.getSimpleName() + "." + name + " (" + e + ")", e);
    }
  }

  /** {@code write_args} as a lambda, or else through its handle (see {@link #lambda}). */
  static WriteArgs writeArgs(MethodHandle target, boolean lambdaAllowed) {
    WriteArgs bound = lambdaAllowed ? lambda(WriteArgs.class, "write", target) : null;
    if (bound != null) {
      return bound;
    }
    MethodHandle exact = target.asType(MethodType.methodType(void.class, TAsyncMethodCall.class, TProtocol.class));
    return (call, protocol) -> {
      try {
        exact.invokeExact(call, protocol);
      } catch (TException | RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new TException(t);
      }
    };
  }

  static NewClient newClient(MethodHandle target, boolean lambdaAllowed) {
    NewClient bound = lambdaAllowed ? lambda(NewClient.class, "create", target) : null;
    if (bound != null) {
      return bound;
    }
    MethodHandle exact = target.asType(MethodType.methodType(TServiceClient.class, TProtocol.class));
    return protocol -> {
      try {
        return (TServiceClient) exact.invokeExact(protocol);
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException(t);
      }
    };
  }

  static Receive receive(MethodHandle target, boolean lambdaAllowed) {
    // a lambda cannot turn a void recv_x into Object: that one goes through its handle
    boolean returnsValue = target.type().returnType() != void.class;
    Receive bound = lambdaAllowed && returnsValue ? lambda(Receive.class, "receive", target) : null;
    if (bound != null) {
      return bound;
    }
    MethodHandle exact = target.asType(MethodType.methodType(Object.class, TServiceClient.class));
    return client -> {
      try {
        return (Object) exact.invokeExact(client);
      } catch (Exception | Error e) {
        throw e;
      } catch (Throwable t) {
        throw new IllegalStateException(t);
      }
    };
  }

  /**
   * {@code target} as an instance of the one-method interface {@code type}, spun as a method reference
   * is: the JIT then inlines it like any call. Null where it cannot be: a generated class this class's
   * loader does not see (the lambda class, defined beside this one, could not resolve it).
   */
  private static <T> T lambda(Class<T> type, String name, MethodHandle target) {
    if (!visibleHere(target.type())) {
      return null;
    }
    java.lang.reflect.Method abstractMethod = type.getDeclaredMethods()[0];
    MethodType erased = MethodType.methodType(abstractMethod.getReturnType(), abstractMethod.getParameterTypes());
    Class<?> returns = target.type().returnType();
    MethodType instantiated = target.type().changeReturnType(returns.isPrimitive() ? erased.returnType() : returns);
    try {
      return type.cast(
          java.lang.invoke.LambdaMetafactory.metafactory(
                  MethodHandles.lookup(), name, MethodType.methodType(type), erased, target, instantiated)
              .getTarget()
              .invoke());
    } catch (Throwable notBound) {
      return null;
    }
  }

  /** Whether this class's loader resolves every class of {@code type} to the same class. */
  private static boolean visibleHere(MethodType type) {
    List<Class<?>> classes = new java.util.ArrayList<>(type.parameterList());
    classes.add(type.returnType());
    for (Class<?> c : classes) {
      if (c.isPrimitive()) {
        continue;
      }
      try {
        if (Class.forName(c.getName(), false, GeneratedCalls.class.getClassLoader()) != c) {
          return false;
        }
      } catch (ClassNotFoundException | LinkageError e) {
        return false;
      }
    }
    return true;
  }

  /**
   * The generated {@code recv_x} of a fresh client expects sequence id 0 (libthrift's async client
   * always sends 0); the connection has already matched the reply by its real one.
   */
  private static final class SequenceZero extends TProtocolDecorator {
    SequenceZero(TProtocol protocol) {
      super(protocol);
    }

    @Override
    public TMessage readMessageBegin() throws TException {
      TMessage message = super.readMessageBegin();
      return new TMessage(message.name, message.type, 0);
    }
  }

  private record ToFuture<T>(CompletableFuture<T> future) implements AsyncMethodCallback<T> {
    @Override
    public void onComplete(T response) {
      future.complete(response);
    }

    @Override
    public void onError(Exception exception) {
      future.completeExceptionally(exception);
    }
  }
}
