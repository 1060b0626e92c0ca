package protocols.thrift;

import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;
import protocols.core.ReconnectBackoff;
import protocols.thrift.client.ThriftClientSettings;
import protocols.thrift.codec.ThriftMessageDecoder;

/**
 * {@code thrift.target("localhost:9090").buffered().compact().multiplexed("Greeter")}: where and how a
 * simulation's Thrift calls go. Immutable; every method returns a new builder.
 *
 * <p>Calls run on Gatling's own event loops (Netty), framed or buffered, binary or compact, plain or
 * multiplexed: the transport, protocol and service name must be the server's.
 */
public final class ThriftProtocolBuilder implements ProtocolBuilder {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);

  private final HostAndPort target;
  private final ThriftTransport transport;
  private final ThriftEncoding encoding;
  private final String service;
  private final ConnectionModel connections;
  private final Duration connectTimeout;
  private final Duration timeout;
  private final ReconnectBackoff.Settings reconnects;

  ThriftProtocolBuilder() {
    this(null, ThriftTransport.FRAMED, ThriftEncoding.BINARY, null, ConnectionModel.perUser(), DEFAULT_CONNECT_TIMEOUT, DEFAULT_TIMEOUT, ReconnectBackoff.DEFAULT);
  }

  private ThriftProtocolBuilder(
      HostAndPort target,
      ThriftTransport transport,
      ThriftEncoding encoding,
      String service,
      ConnectionModel connections,
      Duration connectTimeout,
      Duration timeout,
      ReconnectBackoff.Settings reconnects) {
    this.target = target;
    this.transport = transport;
    this.encoding = encoding;
    this.service = service;
    this.connections = connections;
    this.connectTimeout = connectTimeout;
    this.timeout = timeout;
    this.reconnects = reconnects;
  }

  /** The server, as {@code host:port}. */
  public ThriftProtocolBuilder target(String hostAndPort) {
    return target(HostAndPort.parse(hostAndPort, "thrift.target"));
  }

  public ThriftProtocolBuilder target(HostAndPort target) {
    if (target == null) {
      throw new IllegalArgumentException("thrift.target: expected host:port, got null");
    }
    return new ThriftProtocolBuilder(target, transport, encoding, service, connections, connectTimeout, timeout, reconnects);
  }

  /** {@code TFramedTransport} (the default): a 4-byte length before each message. */
  public ThriftProtocolBuilder framed() {
    return transport(ThriftTransport.FRAMED);
  }

  /** No frame length ({@code TSocket}/{@code TBufferedTransport}), as many blocking servers expect. */
  public ThriftProtocolBuilder buffered() {
    return transport(ThriftTransport.BUFFERED);
  }

  public ThriftProtocolBuilder transport(ThriftTransport transport) {
    if (transport == null) {
      throw new IllegalArgumentException("thrift.transport: expected FRAMED or BUFFERED, got null");
    }
    return new ThriftProtocolBuilder(target, transport, encoding, service, connections, connectTimeout, timeout, reconnects);
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
    return new ThriftProtocolBuilder(target, transport, encoding, service, connections, connectTimeout, timeout, reconnects);
  }

  /**
   * Calls a service registered under {@code serviceName} in the server's {@code
   * TMultiplexedProcessor}: the method goes on the wire as {@code "serviceName:method"}, as {@code
   * TMultiplexedProtocol} sends it. Null: not multiplexed (the default).
   */
  public ThriftProtocolBuilder multiplexed(String serviceName) {
    if (serviceName != null && (serviceName.isBlank() || serviceName.contains(":"))) {
      throw new IllegalArgumentException(
          "thrift.multiplexed: expected the name a TMultiplexedProcessor registers the service under (no ':'), got \""
              + serviceName
              + "\"");
    }
    return new ThriftProtocolBuilder(target, transport, encoding, serviceName, connections, connectTimeout, timeout, reconnects);
  }

  /**
   * {@code count} connections shared by all virtual users, each carrying many calls at once
   * (pipelined: a Thrift server answers one connection's calls in order, so a call waits on the server
   * for those sent before it on its connection, and that wait is part of its response time).
   */
  public ThriftProtocolBuilder sharedConnections(int count) {
    if (count < 1) {
      throw new IllegalArgumentException(
          "thrift.sharedConnections: expected a pool size of at least 1, got " + count);
    }
    return new ThriftProtocolBuilder(target, transport, encoding, service, ConnectionModel.shared(count), connectTimeout, timeout, reconnects);
  }

  /**
   * One connection per virtual user (the default, and the seed benchmark's model), opened on its first
   * call and closed when it exits: a user never waits for another user's call.
   */
  public ThriftProtocolBuilder connectionPerUser() {
    return new ThriftProtocolBuilder(target, transport, encoding, service, ConnectionModel.perUser(), connectTimeout, timeout, reconnects);
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
        target, transport, encoding, service, connections, positive(connectTimeout, "thrift.connectTimeout"), timeout, reconnects);
  }

  /**
   * The timeout of calls that set none, from the moment the virtual user sends the call: it covers
   * connecting, the wait behind earlier calls on the same connection, and the call itself.
   */
  public ThriftProtocolBuilder timeout(Duration timeout) {
    return new ThriftProtocolBuilder(
        target, transport, encoding, service, connections, connectTimeout, positive(timeout, "thrift.timeout"), reconnects);
  }

  /**
   * How long to wait before connecting again to a target that refused a connection or closed it before
   * answering: {@code firstDelay}, doubled at every further failure up to {@code maxDelay}, with jitter;
   * meanwhile calls are RECONNECTING KOs at once (default 100 ms up to 5 s; see docs/thrift.md).
   */
  public ThriftProtocolBuilder reconnectBackoff(Duration firstDelay, Duration maxDelay) {
    return new ThriftProtocolBuilder(
        target, transport, encoding, service, connections, connectTimeout, timeout,
        new ReconnectBackoff.Settings(positive(firstDelay, "thrift.reconnectBackoff"), positive(maxDelay, "thrift.reconnectBackoff")));
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
    return new ThriftProtocol(
        new ThriftClientSettings(
            target, connectTimeout, transport, encoding, service, ThriftMessageDecoder.DEFAULT_MAX_MESSAGE_LENGTH),
        connections,
        timeout,
        reconnects);
  }
}
