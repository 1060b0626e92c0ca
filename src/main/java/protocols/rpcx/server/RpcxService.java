package protocols.rpcx.server;

import java.util.concurrent.CompletableFuture;
import protocols.rpcx.codec.RpcxMessage;

/**
 * One method of a service served by {@link RpcxServer}: takes the request and completes with the
 * reply's payload. Throwing, or failing the future, sends an error reply with the exception's message.
 * It runs on an I/O thread: it must not block.
 */
@FunctionalInterface
public interface RpcxService {

  CompletableFuture<byte[]> handle(RpcxMessage request) throws Exception;
}
