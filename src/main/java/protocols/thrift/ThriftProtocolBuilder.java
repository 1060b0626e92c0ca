package protocols.thrift;

import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;

/**
 * {@code thrift.target("localhost:9090").sharedConnections(64).timeout(Duration.ofSeconds(2))}: where
 * and how a simulation's Thrift calls go. Immutable; every method returns a new builder.
 *
 * <p>Calls go through Thrift's non-blocking async clients, which always use the framed transport: the
 * server must be framed too (a {@code TNonblockingServer}, {@code TThreadedSelectorServer}, or any
 * server with {@code TFramedTransport}).
 */
public final class ThriftProtocolBuilder implements ProtocolBuilder {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
  public static final int DEFAULT_SELECTOR_THREADS = 2;

  private final HostAndPort target;
  private final ThriftEncoding encoding;
  private final int sharedConnections; // 0: one per virtual user
  private final Duration connectTimeout;
  private final Duration timeout;
  private final int selectorThreads;

  ThriftProtocolBuilder() {
    this(null, ThriftEncoding.BINARY, 0, DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT, DEFAULT_SELECTOR_THREADS);
  }

  private ThriftProtocolBuilder(
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
  }

  /** The server, as {@code host:port}. */
  public ThriftProtocolBuilder target(String hostAndPort) {
    return target(HostAndPort.parse(hostAndPort, "thrift.target"));
  }

  public ThriftProtocolBuilder target(HostAndPort target) {
    if (target == null) {
      throw new IllegalArgumentException("thrift.target: expected host:port, got null");
    }
    return new ThriftProtocolBuilder(target, encoding, sharedConnections, connectTimeout, timeout, selectorThreads);
  }

  /** {@code TBinaryProtocol} (the default). */
  public ThriftProtocolBuilder binary() {
    return encoding(ThriftEncoding.BINARY);
  }

  /** {@code TCompactProtocol}. */
  public ThriftProtocolBuilder compact() {
    return encoding(ThriftEncoding.COMPACT);
  }

  public ThriftProtocolBuilder encoding(ThriftEncoding encoding) {
    if (encoding == null) {
      throw new IllegalArgumentException("thrift.encoding: expected BINARY or COMPACT, got null");
    }
    return new ThriftProtocolBuilder(target, encoding, sharedConnections, connectTimeout, timeout, selectorThreads);
  }

  /**
   * A pool of at most {@code count} connections shared by all virtual users. A connection carries one
   * call at a time: when all are busy, a call waits (without blocking a thread) for the next free one,
   * and that wait is part of its response time; a call still waiting when its timeout expires is a KO
   * ({@code POOL_EXHAUSTED}) and is not sent.
   */
  public ThriftProtocolBuilder sharedConnections(int count) {
    if (count < 1) {
      throw new IllegalArgumentException(
          "thrift.sharedConnections: expected a pool size of at least 1, got " + count);
    }
    return new ThriftProtocolBuilder(target, encoding, count, connectTimeout, timeout, selectorThreads);
  }

  /**
   * One connection per virtual user (the default, and the seed benchmark's model), opened on its first
   * call and closed when it exits: a user never waits for another user's call.
   */
  public ThriftProtocolBuilder connectionPerUser() {
    return new ThriftProtocolBuilder(target, encoding, 0, connectTimeout, timeout, selectorThreads);
  }

  /** {@link ConnectionModel#shared(int)} or {@link ConnectionModel#perUser()}, as {@code -Dconnections} reads. */
  public ThriftProtocolBuilder connections(ConnectionModel model) {
    if (model == null) {
      throw new IllegalArgumentException("thrift.connections: expected a ConnectionModel, got null");
    }
    return model.perUserClients() ? connectionPerUser() : sharedConnections(model.sharedClients());
  }

  /** How long opening a connection may take; a call that needs it fails with CONNECT_FAILED after. */
  public ThriftProtocolBuilder connectTimeout(Duration connectTimeout) {
    return new ThriftProtocolBuilder(
        target, encoding, sharedConnections, positive(connectTimeout, "thrift.connectTimeout"), timeout, selectorThreads);
  }

  /**
   * The timeout of calls that set none, from the moment the virtual user sends the call: it covers the
   * wait for a free connection, connecting, and the call itself.
   */
  public ThriftProtocolBuilder timeout(Duration timeout) {
    return new ThriftProtocolBuilder(
        target, encoding, sharedConnections, connectTimeout, positive(timeout, "thrift.timeout"), selectorThreads);
  }

  /** Thrift selector threads ({@code TAsyncClientManager}s) driving all connections' I/O; default 2. */
  public ThriftProtocolBuilder selectorThreads(int count) {
    if (count < 1 || count > 64) {
      throw new IllegalArgumentException(
          "thrift.selectorThreads: expected a number of threads from 1 to 64, got " + count);
    }
    return new ThriftProtocolBuilder(target, encoding, sharedConnections, connectTimeout, timeout, count);
  }

  private static Duration positive(Duration d, String what) {
    if (d == null || d.isNegative() || d.isZero() || d.toMillis() == 0) {
      throw new IllegalArgumentException(what + ": expected a positive duration of at least 1 ms, got " + d);
    }
    if (d.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(what + ": expected at most " + Integer.MAX_VALUE + " ms, got " + d);
    }
    return d;
  }

  @Override
  public ThriftProtocol protocol() {
    if (target == null) {
      throw new IllegalStateException("thrift: no target: add .target(\"host:port\")");
    }
    return new ThriftProtocol(target, encoding, sharedConnections, connectTimeout, timeout, selectorThreads);
  }
}
