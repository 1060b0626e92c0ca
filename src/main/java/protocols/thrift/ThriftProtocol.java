package protocols.thrift;

import java.time.Duration;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;
import protocols.core.RpcProtocol;
import protocols.core.RpcProtocolKey;

/** The settings of a Thrift target, built with {@link ThriftProtocolBuilder}. */
public final class ThriftProtocol implements RpcProtocol {

  static final RpcProtocolKey<ThriftProtocol, ThriftPool> KEY =
      new RpcProtocolKey<>(ThriftProtocol.class, "thrift", new ThriftConnections());

  final HostAndPort target;
  final ThriftEncoding encoding;
  /** Connections shared by all virtual users; 0: one connection per virtual user. */
  final int sharedConnections;
  final Duration connectTimeout;
  final Duration timeout;
  final int selectorThreads;
  final ThriftRuntime.Shared runtime;

  ThriftProtocol(
      HostAndPort target,
      ThriftEncoding encoding,
      int sharedConnections,
      Duration connectTimeout,
      Duration timeout,
      int selectorThreads) {
    this.target = target;
    this.encoding = encoding;
    this.sharedConnections = sharedConnections;
    this.connectTimeout = connectTimeout;
    this.timeout = timeout;
    this.selectorThreads = selectorThreads;
    this.runtime = new ThriftRuntime.Shared(selectorThreads);
  }

  @Override
  public Duration defaultTimeout() {
    return timeout;
  }

  /**
   * To the shared bridge, a Thrift "client" is a whole pool of connections: one pool shared by every
   * virtual user, or one pool of one connection per virtual user.
   */
  @Override
  public ConnectionModel connectionModel() {
    return sharedConnections == 0 ? ConnectionModel.perUser() : ConnectionModel.shared(1);
  }

  /** Connections in one pool. */
  int poolSize() {
    return sharedConnections == 0 ? 1 : sharedConnections;
  }

  @Override
  public String toString() {
    return "thrift "
        + target
        + ", framed "
        + encoding.name().toLowerCase(java.util.Locale.ROOT)
        + ", "
        + (sharedConnections == 0 ? "one connection per virtual user" : "a pool of " + sharedConnections + " shared connection(s)")
        + ", connect timeout "
        + connectTimeout.toMillis()
        + " ms, timeout "
        + timeout.toMillis()
        + " ms, "
        + selectorThreads
        + " selector thread(s)";
  }
}
