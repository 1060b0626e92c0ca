package protocols.motan;

import com.weibo.api.motan.rpc.ResponseFuture;

/**
 * One asynchronous call of a Motan service: an {@code ...Async} method of its proxy, given the request,
 * for example {@code BenchmarkServiceAsync::sayAsync} or {@code (calc, req) -> calc.addAsync(req.a(),
 * req.b())}.
 */
@FunctionalInterface
public interface MotanMethod<S, Req> {

  ResponseFuture invoke(S service, Req request) throws Exception;
}
