package benchmark.motan;

import com.weibo.api.motan.rpc.ResponseFuture;

/**
 * The client's view of {@link BenchmarkService} by Motan's asynchronous convention: the same interface
 * name plus {@code Async}, each method once more with the suffix {@code Async}, returning a {@link
 * ResponseFuture}. Motan calls the provider's {@code BenchmarkService.say} for {@code sayAsync}.
 */
public interface BenchmarkServiceAsync extends BenchmarkService {

  ResponseFuture sayAsync(byte[] message);
}
