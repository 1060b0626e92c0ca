package benchmark.bare;

import java.util.concurrent.CompletableFuture;

/**
 * One framework's client reduced to the benchmark call, with no Gatling in between: the limit a Gatling
 * protocol is measured against.
 */
public interface BareClient extends AutoCloseable {

  /** Sends the seed's request; completes true when the reply's field1 is "OK". Must not block. */
  CompletableFuture<Boolean> say();

  @Override
  void close() throws Exception;
}
