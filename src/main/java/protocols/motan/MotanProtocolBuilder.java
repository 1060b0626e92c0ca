package protocols.motan;

import io.gatling.javaapi.core.ProtocolBuilder;
import java.time.Duration;
import protocols.core.ConnectionModel;
import protocols.core.ReconnectBackoff;
import protocols.core.HostAndPort;

/**
 * {@code motan.target("localhost:8002").group("benchmark").requestTimeout(Duration.ofSeconds(2))}:
 * where and how a simulation's Motan calls go. Immutable; every method returns a new builder.
 *
 * <p>A "client" here is one Motan referer per service interface, holding {@code minClientConnections}
 * connections: {@link #sharedClients(int)} of them serve all virtual users, or {@link #clientPerUser()}.
 */
public final class MotanProtocolBuilder implements ProtocolBuilder {

  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(10);
  public static final String DEFAULT_GROUP = "default_rpc";
  public static final String DEFAULT_VERSION = "1.0";
  public static final String DEFAULT_SERIALIZATION = "hessian2";
  public static final int DEFAULT_MIN_CLIENT_CONNECTIONS = 2;
  public static final int DEFAULT_MAX_CLIENT_CONNECTIONS = 10;

  private final HostAndPort target;
  private final MotanRegistry registry;
  private final String group;
  private final String version;
  private final Duration requestTimeout;
  private final int minClientConnections;
  private final int maxClientConnections;
  private final String serialization;
  private final ConnectionModel connections;
  private final ReconnectBackoff.Settings reconnects;

  MotanProtocolBuilder() {
    this(
        null,
        null,
        DEFAULT_GROUP,
        DEFAULT_VERSION,
        DEFAULT_REQUEST_TIMEOUT,
        DEFAULT_MIN_CLIENT_CONNECTIONS,
        DEFAULT_MAX_CLIENT_CONNECTIONS,
        DEFAULT_SERIALIZATION,
        ConnectionModel.shared(1),
        ReconnectBackoff.DEFAULT);
  }

  private MotanProtocolBuilder(
      HostAndPort target,
      MotanRegistry registry,
      String group,
      String version,
      Duration requestTimeout,
      int minClientConnections,
      int maxClientConnections,
      String serialization,
      ConnectionModel connections,
      ReconnectBackoff.Settings reconnects) {
    this.reconnects = reconnects;
    this.target = target;
    this.registry = registry;
    this.group = group;
    this.version = version;
    this.requestTimeout = requestTimeout;
    this.minClientConnections = minClientConnections;
    this.maxClientConnections = maxClientConnections;
    this.serialization = serialization;
    this.connections = connections;
  }

  /** A provider, as {@code host:port}, called directly (Motan's direct URL); replaces a registry. */
  public MotanProtocolBuilder target(String hostAndPort) {
    return target(HostAndPort.parse(hostAndPort, "motan.target"));
  }

  public MotanProtocolBuilder target(HostAndPort target) {
    if (target.host().indexOf(':') >= 0) {
      throw new IllegalArgumentException(
          "motan.target=" + target + ": Motan's direct URLs take a host name or IPv4 address, not an IPv6 literal");
    }
    return new MotanProtocolBuilder(
        target, null, group, version, requestTimeout, minClientConnections, maxClientConnections, serialization, connections, reconnects);
  }

  /**
   * Providers found through a Motan registry, as {@code <registry protocol>://<address>}: {@code
   * direct://host1:port,host2:port} works as is; {@code zookeeper://host:2181} and the others need their
   * Motan registry module on the classpath (for example {@code com.weibo:motan-registry-zookeeper}).
   * Replaces a target.
   */
  public MotanProtocolBuilder registry(String registryUrl) {
    return new MotanProtocolBuilder(
        null,
        MotanRegistry.parse(registryUrl),
        group,
        version,
        requestTimeout,
        minClientConnections,
        maxClientConnections,
        serialization,
        connections, reconnects);
  }

  /** The provider's group (Motan's default: {@value #DEFAULT_GROUP}). */
  public MotanProtocolBuilder group(String group) {
    return new MotanProtocolBuilder(
        target, registry, nonBlank(group, "motan.group"), version, requestTimeout, minClientConnections, maxClientConnections, serialization, connections, reconnects);
  }

  /** The provider's version (Motan's default: {@value #DEFAULT_VERSION}). */
  public MotanProtocolBuilder version(String version) {
    return new MotanProtocolBuilder(
        target, registry, group, nonBlank(version, "motan.version"), requestTimeout, minClientConnections, maxClientConnections, serialization, connections, reconnects);
  }

  /** The timeout of calls that set none. */
  public MotanProtocolBuilder requestTimeout(Duration timeout) {
    if (timeout == null || timeout.isNegative() || timeout.toMillis() < 1 || timeout.toMillis() > Integer.MAX_VALUE) {
      throw new IllegalArgumentException(
          "motan.requestTimeout: expected a positive duration of at least 1 ms, got " + timeout);
    }
    return new MotanProtocolBuilder(
        target, registry, group, version, timeout, minClientConnections, maxClientConnections, serialization, connections, reconnects);
  }

  /** Same as {@link #requestTimeout(Duration)}. */
  public MotanProtocolBuilder timeout(Duration timeout) {
    return requestTimeout(timeout);
  }

  /**
   * Connections per client (Motan's {@code minClientConnection} / {@code maxClientConnection}). Motan
   * 1.2's Netty 4 client opens {@code min} connections to each provider and uses them round-robin;
   * {@code max} only bounds how many providers a client picks with {@code maxConnectionPerGroup}.
   */
  public MotanProtocolBuilder clientConnections(int min, int max) {
    if (min < 1 || max < min) {
      throw new IllegalArgumentException(
          "motan.clientConnections(" + min + ", " + max + "): expected 1 <= min <= max");
    }
    return new MotanProtocolBuilder(
        target, registry, group, version, requestTimeout, min, max, serialization, connections, reconnects);
  }

  /** {@code minClientConnections}, and the maximum raised to it if needed. */
  public MotanProtocolBuilder minClientConnections(int min) {
    return clientConnections(min, Math.max(min, maxClientConnections));
  }

  /** {@code maxClientConnections}, and the minimum lowered to it if needed. */
  public MotanProtocolBuilder maxClientConnections(int max) {
    return clientConnections(Math.min(minClientConnections, max), max);
  }

  /**
   * Motan's serialization of arguments and results: {@code hessian2} (default), {@code fastjson}, ...;
   * it must be the provider's.
   */
  public MotanProtocolBuilder serialization(String serialization) {
    return new MotanProtocolBuilder(
        target, registry, group, version, requestTimeout, minClientConnections, maxClientConnections,
        nonBlank(serialization, "motan.serialization"), connections, reconnects);
  }

  /** {@code count} clients shared round-robin by all virtual users (default: 1). */
  public MotanProtocolBuilder sharedClients(int count) {
    return connections(ConnectionModel.shared(count));
  }

  /** One client per virtual user, made on its first call and closed when it exits (the seed's model). */
  public MotanProtocolBuilder clientPerUser() {
    return connections(ConnectionModel.perUser());
  }

  public MotanProtocolBuilder connections(ConnectionModel model) {
    if (model == null) {
      throw new IllegalArgumentException("motan.connections: expected a ConnectionModel, got null");
    }
    return new MotanProtocolBuilder(
        target, registry, group, version, requestTimeout, minClientConnections, maxClientConnections, serialization, model, reconnects);
  }

  /**
   * How long to wait before a new client may connect to a provider that refused or dropped a client's
   * connections before answering: {@code firstDelay}, doubled at every further failure up to {@code
   * maxDelay}, with jitter; meanwhile calls are RECONNECTING KOs at once (default 100 ms up to 5 s; see
   * docs/motan.md).
   */
  public MotanProtocolBuilder reconnectBackoff(Duration firstDelay, Duration maxDelay) {
    return new MotanProtocolBuilder(
        target, registry, group, version, requestTimeout, minClientConnections, maxClientConnections, serialization, connections,
        ReconnectBackoff.Settings.of("motan.reconnectBackoff", firstDelay, maxDelay));
  }

  @Override
  public MotanProtocol protocol() {
    if (target == null && registry == null) {
      throw new IllegalStateException(
          "motan: no provider: add .target(\"host:port\") or .registry(\"zookeeper://host:2181\")");
    }
    return new MotanProtocol(
        target, registry, group, version, requestTimeout, minClientConnections, maxClientConnections, serialization, connections,
        reconnects);
  }

  private static String nonBlank(String value, String what) {
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException(what + ": expected a non-empty name, got \"" + value + "\"");
    }
    return value.trim();
  }
}
