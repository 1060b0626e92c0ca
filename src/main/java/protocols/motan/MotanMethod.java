package protocols.motan;

import com.weibo.api.motan.rpc.ResponseFuture;

/**
 * One asynchronous call of a Motan service: an {@code ...Async} method of its proxy, given the request,
 * for example {@code BenchmarkServiceAsync::sayAsync} or {@code (CalculatorAsync calc,
 * int[] n) -> calc.addAsync(n[0], n[1])} (a lambda names its parameter types, so Java knows the request's).
 */
@FunctionalInterface
public interface MotanMethod<S, Req> {

  ResponseFuture invoke(S service, Req request) throws Exception;
}
