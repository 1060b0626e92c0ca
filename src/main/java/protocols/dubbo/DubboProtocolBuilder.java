package protocols.dubbo;

import io.gatling.javaapi.core.ProtocolBuilder;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Enumeration;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;
import protocols.core.ReconnectBackoff;

/**
 * {@code dubbo.target("localhost:20880").timeout(Duration.ofSeconds(3))} or {@code
 * dubbo.registry("zookeeper://localhost:2181")}: where and how a simulation's Dubbo calls go.
 * Immutable; every method returns a new builder.
 */
public final class DubboProtocolBuilder implements ProtocolBuilder {

  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  public static final Duration DEFAULT_REGISTRY_TIMEOUT = Duration.ofSeconds(5);
  public static final String DEFAULT_APPLICATION = "gatling-rpc";

  private final HostAndPort target;
  private final String registry;
  private final String protocolName;
  private final String serialization;
  private final Duration timeout;
  private final ConnectionModel connections;
  private final String application;
  private final Integer qosPort;
  private final Duration registryTimeout;
  private final DubboDiscovery discovery; // null: not set (interface-level)
  private final ReconnectBackoff.Settings reconnects;

  DubboProtocolBuilder() {
    this(null, null, "dubbo", null, DEFAULT_TIMEOUT, ConnectionModel.shared(1), DEFAULT_APPLICATION, null, DEFAULT_REGISTRY_TIMEOUT, null,
        ReconnectBackoff.DEFAULT);
  }

  private DubboProtocolBuilder(
      HostAndPort target,
      String registry,
      String protocolName,
      String serialization,
      Duration timeout,
      ConnectionModel connections,
      String application,
      Integer qosPort,
      Duration registryTimeout,
      DubboDiscovery discovery,
      ReconnectBackoff.Settings reconnects) {
    this.target = target;
    this.registry = registry;
    this.protocolName = protocolName;
    this.serialization = serialization;
    this.timeout = timeout;
    this.connections = connections;
    this.application = application;
    this.qosPort = qosPort;
    this.registryTimeout = registryTimeout;
    this.discovery = discovery;
    this.reconnects = reconnects;
  }

  /**
   * A provider, directly: {@code host:port}, or a URL whose scheme also sets the protocol: {@code
   * dubbo://host:port}, {@code tri://host:port}. Replaces a registry.
   */
  public DubboProtocolBuilder target(String address) {
    String value = address == null ? "" : address.trim();
    String protocol = protocolName;
    int scheme = value.indexOf("://");
    if (scheme >= 0) {
      protocol = DubboSetup.protocolName(value.substring(0, scheme), "dubbo.target scheme");
      value = value.substring(scheme + 3);
    }
    HostAndPort parsed;
    try {
      parsed = HostAndPort.parse(value, "dubbo.target");
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "dubbo.target=" + address + ": expected host:port or dubbo://host:port (tri://host:port for Triple), for example localhost:20880");
    }
    return new DubboProtocolBuilder(parsed, null, protocol, serialization, timeout, connections, application, qosPort, registryTimeout, discovery, reconnects);
  }

  public DubboProtocolBuilder target(HostAndPort target) {
    return new DubboProtocolBuilder(target, null, protocolName, serialization, timeout, connections, application, qosPort, registryTimeout, discovery, reconnects);
  }

  /** Providers found in a registry: {@code zookeeper://host:port}. Replaces a direct target. */
  public DubboProtocolBuilder registry(String address) {
    String checked = DubboSetup.registryAddress(address, "dubbo.registry");
    return new DubboProtocolBuilder(null, checked, protocolName, serialization, timeout, connections, application, qosPort, registryTimeout, discovery, reconnects);
  }

  /**
   * How the consumer finds providers in the registry: {@code interface} (the default: providers
   * registered per interface, as Dubbo 2 and every Dubbo 3 provider in register mode {@code interface}
   * or {@code all} do), {@code application} (Dubbo 3's application-level service discovery, migration
   * step FORCE_APPLICATION: providers registered as application instances) or {@code application-first}
   * (APPLICATION_FIRST: instances if there are any, else interfaces). Dubbo's step names are accepted
   * too. Needs a registry.
   */
  public DubboProtocolBuilder serviceDiscovery(String discovery) {
    return serviceDiscovery(DubboDiscovery.parse(discovery, "dubbo.serviceDiscovery"));
  }

  public DubboProtocolBuilder serviceDiscovery(DubboDiscovery discovery) {
    if (discovery == null) {
      throw new IllegalArgumentException("dubbo.serviceDiscovery: expected interface, application or application-first, got null");
    }
    return new DubboProtocolBuilder(target, registry, protocolName, serialization, timeout, connections, application, qosPort, registryTimeout, discovery, reconnects);
  }

  /** How long to wait for the registry when the consumer starts (5 s by default). */
  public DubboProtocolBuilder registryTimeout(Duration registryTimeout) {
    return new DubboProtocolBuilder(target, registry, protocolName, serialization, timeout, connections, application, qosPort, positive(registryTimeout, "registryTimeout"), discovery, reconnects);
  }

  /** {@code dubbo} (the default) or {@code tri} (Triple, HTTP/2). With a registry: only its providers. */
  public DubboProtocolBuilder protocol(String name) {
    return new DubboProtocolBuilder(target, registry, DubboSetup.protocolName(name, "dubbo.protocol"), serialization, timeout, connections, application, qosPort, registryTimeout, discovery, reconnects);
  }

  /** The serialization of calls: {@code hessian2} (Dubbo's default), {@code fastjson2}, ... */
  public DubboProtocolBuilder serialization(String name) {
    String value = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    Set<String> known = Serializations.NAMES;
    if (!known.contains(value)) {
      throw new IllegalArgumentException(
          "dubbo.serialization=" + name + ": expected one of " + known + " (hessian2 is Dubbo's default)");
    }
    return new DubboProtocolBuilder(target, registry, protocolName, value, timeout, connections, application, qosPort, registryTimeout, discovery, reconnects);
  }

  /** The timeout of calls that set none (10 s by default). */
  public DubboProtocolBuilder timeout(Duration timeout) {
    return new DubboProtocolBuilder(target, registry, protocolName, serialization, positive(timeout, "timeout"), connections, application, qosPort, registryTimeout, discovery, reconnects);
  }

  /** {@code count} clients shared round-robin by all users, each with its own connection (1 by default). */
  public DubboProtocolBuilder sharedConnections(int count) {
    return connections(ConnectionModel.shared(count));
  }

  /**
   * One client per virtual user, with its own connection, opened on its first call and closed when it
   * exits. A Dubbo client is costly to open (tens of ms of CPU): for thousands of users, prefer shared.
   */
  public DubboProtocolBuilder connectionPerUser() {
    return connections(ConnectionModel.perUser());
  }

  public DubboProtocolBuilder connections(ConnectionModel model) {
    if (model == null) {
      throw new IllegalArgumentException("dubbo.connections: expected a connection model, got null");
    }
    return new DubboProtocolBuilder(target, registry, protocolName, serialization, timeout, model, application, qosPort, registryTimeout, discovery, reconnects);
  }

  /** The consumer's Dubbo application name ({@value #DEFAULT_APPLICATION} by default). */
  public DubboProtocolBuilder application(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("dubbo.application: expected a non-empty name, got " + name);
    }
    return new DubboProtocolBuilder(target, registry, protocolName, serialization, timeout, connections, name.trim(), qosPort, registryTimeout, discovery, reconnects);
  }

  /** Turns Dubbo's QoS (telnet/HTTP admin) on at {@code port}; off by default so runs never collide on 22222. */
  public DubboProtocolBuilder qos(int port) {
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("dubbo.qos: expected a port 1-65535, got " + port);
    }
    return new DubboProtocolBuilder(target, registry, protocolName, serialization, timeout, connections, application, port, registryTimeout, discovery, reconnects);
  }

  /**
   * How long to wait before a new client may connect to a provider that refused or dropped a client's
   * connection before answering: {@code firstDelay}, doubled at every further failure up to {@code
   * maxDelay}, with jitter; meanwhile calls are RECONNECTING KOs at once (default 100 ms up to 5 s;
   * direct targets only, see docs/dubbo.md).
   */
  public DubboProtocolBuilder reconnectBackoff(Duration firstDelay, Duration maxDelay) {
    return new DubboProtocolBuilder(target, registry, protocolName, serialization, timeout, connections, application, qosPort, registryTimeout, discovery,
        ReconnectBackoff.Settings.of("dubbo.reconnectBackoff", firstDelay, maxDelay));
  }

  @Override
  public DubboProtocol protocol() {
    if (target == null && registry == null) {
      throw new IllegalStateException(
          "dubbo: no provider address: add .target(\"host:port\") or .registry(\"zookeeper://host:port\")");
    }
    if (registry == null && discovery != null) {
      throw new IllegalStateException(
          "dubbo.serviceDiscovery(" + discovery + ") finds providers in a registry: add .registry(\"zookeeper://host:port\") instead of .target(...)");
    }
    return new DubboProtocol(
        target, registry, protocolName, serialization, timeout, connections, application, qosPort, registryTimeout,
        discovery == null ? DubboDiscovery.INTERFACE : discovery, reconnects);
  }

  private static Duration positive(Duration value, String what) {
    if (value == null || value.isNegative() || value.isZero()) {
      throw new IllegalArgumentException("dubbo." + what + ": expected a positive duration, got " + value);
    }
    return value;
  }

  /** The serializations Dubbo declares on the classpath, read from its extension files. */
  static final class Serializations {
    static final Set<String> NAMES = read();

    private static Set<String> read() {
      Set<String> names = new TreeSet<>();
      String file = "META-INF/dubbo/internal/org.apache.dubbo.common.serialize.Serialization";
      try {
        Enumeration<URL> files = DubboProtocolBuilder.class.getClassLoader().getResources(file);
        while (files.hasMoreElements()) {
          try (BufferedReader lines = new BufferedReader(new InputStreamReader(files.nextElement().openStream(), StandardCharsets.UTF_8))) {
            lines.lines()
                .map(line -> line.replaceFirst("#.*", "").trim())
                .filter(line -> line.contains("="))
                .forEach(line -> names.add(line.substring(0, line.indexOf('=')).trim()));
          }
        }
      } catch (IOException e) {
        // fall back to the one every Dubbo has
      }
      if (names.isEmpty()) {
        names.add("hessian2");
      }
      return Set.copyOf(names);
    }
  }
}
