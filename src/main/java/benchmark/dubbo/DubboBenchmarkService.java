package benchmark.dubbo;

import java.util.concurrent.CompletableFuture;

/**
 * The seed's Dubbo service: the protobuf-encoded {@code BenchmarkMessage} travels as a {@code byte[]}
 * argument and result, serialized by Dubbo's default serialization (hessian2).
 *
 * <p>{@link #say} is the seed's wire contract (what a generic call names); {@link #sayAsync} is the same
 * call for consumers that must not block a thread while it is in flight.
 */
public interface DubboBenchmarkService {

  byte[] say(byte[] message);

  /** {@link #say} as a future: on the consumer side the call returns at once and completes later. */
  default CompletableFuture<byte[]> sayAsync(byte[] message) {
    return CompletableFuture.completedFuture(say(message));
  }
}
