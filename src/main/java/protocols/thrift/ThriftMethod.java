package protocols.thrift;

import org.apache.thrift.TException;
import org.apache.thrift.async.AsyncMethodCallback;

/**
 * Starts one call of a generated async client. For a method of one argument, pass the generated
 * method itself ({@code Greeter.AsyncClient::say}): its types are inferred. For more arguments, spread
 * the payload in a lambda and name the types: {@code .<long[], Long>call((client, ab, callback) ->
 * client.add(ab[0], ab[1], callback))}.
 *
 * @param <S> the generated async client
 * @param <Req> the payload a virtual user builds for one call
 * @param <Res> the method's result type ({@code Void} for a {@code void} method)
 */
@FunctionalInterface
public interface ThriftMethod<S, Req, Res> {

  void call(S client, Req request, AsyncMethodCallback<Res> callback) throws TException;
}
