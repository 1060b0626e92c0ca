package protocols.core;

import java.util.concurrent.CompletableFuture;

/**
 * Sends one request through a framework client without blocking, the only thing a framework adapter
 * has to provide per request type.
 *
 * <p>It may throw or return a failed future: both become a KO. It should pass {@link
 * CallContext#timeout()} to its client; the bridge also stops waiting shortly after it.
 */
@FunctionalInterface
public interface RpcCall<C, Req, Res> {

  CompletableFuture<Res> send(C client, Req request, CallContext context) throws Exception;
}
