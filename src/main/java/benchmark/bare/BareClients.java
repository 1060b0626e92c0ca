package benchmark.bare;

/**
 * A framework's client library set up against one server: opens the clients of a bare loop. What its
 * clients share (Thrift's selector threads, a Dubbo application) lives here, so that one client per
 * chain costs no more than the protocol's one client per virtual user.
 */
@FunctionalInterface
public interface BareClients extends AutoCloseable {

  /**
   * A client of its own {@code connections} connections, used round-robin; {@code oneChainEach}: it is
   * one chain's own client (-Dconnections=per-user), not all chains' (a client that writes differently for
   * one caller than for many, as the Netty connections' flushes, does as the protocol does in that mode).
   */
  BareClient open(int connections, boolean oneChainEach) throws Exception;

  /** Releases what the clients share; called after every client is closed. */
  @Override
  default void close() throws Exception {}
}
