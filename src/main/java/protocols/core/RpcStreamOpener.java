package protocols.core;

/**
 * Opens one stream through a framework client, the only thing a framework adapter provides per
 * stream type. It should apply {@link CallContext#timeout()} to the whole stream; the bridge also gives
 * up shortly after it.
 */
@FunctionalInterface
public interface RpcStreamOpener<C, Req, Res> {

  RpcStream<Req> open(C client, CallContext context, StreamListener<Res> listener) throws Exception;
}
