package protocols.dubbo;

import java.io.IOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.dubbo.config.RegistryConfig;

/**
 * What the Dubbo consumer of this package and the benchmark provider share: input checks with readable
 * errors, registry settings, logging, and Dubbo's start-up failures told in one line.
 */
public final class DubboSetup {

  /** The protocols this package is tested with. */
  public static final Set<String> PROTOCOLS = Set.of("dubbo", "tri");

  private static final Pattern REGISTRY =
      Pattern.compile("[a-z][a-z0-9+.-]*://[^/?#\\s]+(:\\d+)?(,[^/?#\\s]+(:\\d+)?)*(\\?\\S*)?");

  private static final Pattern URL_PARAMETERS = Pattern.compile("\\?[^\\s)\\],]*");

  private DubboSetup() {}

  /**
   * Keeps Dubbo on loopback when it is asked to use loopback. Dubbo replaces any 127.x host, in a
   * consumer's direct URL as in a provider's bind address, by the machine's first non-loopback address
   * (NetUtils.filterLocalHost), with no setting to stop it: a load test of a local provider would then
   * go out through the network interface. Pinning Dubbo's notion of "this machine" to 127.0.0.1 keeps
   * such traffic on loopback. Only called for loopback hosts: a provider bound to 0.0.0.0 for remote
   * clients, or a consumer of a remote provider, keeps Dubbo's own choice.
   */
  public static void stayOnLoopbackFor(String host) {
    if (host == null || !isLoopback(host)) {
      return;
    }
    try {
      Class<?> netUtils = Class.forName("org.apache.dubbo.common.utils.NetUtils");
      set(netUtils, "LOCAL_ADDRESS", java.net.InetAddress.getByName("127.0.0.1"));
      set(netUtils, "HOST_ADDRESS", "127.0.0.1");
    } catch (ReflectiveOperationException | java.net.UnknownHostException e) {
      throw new IllegalStateException("cannot keep Dubbo on loopback (Dubbo's NetUtils changed?): " + e, e);
    }
  }

  static boolean isLoopback(String host) {
    return host.equals("localhost") || host.startsWith("127.") || host.equals("::1") || host.equals("[::1]");
  }

  private static void set(Class<?> type, String field, Object value) throws ReflectiveOperationException {
    java.lang.reflect.Field f = type.getDeclaredField(field);
    f.setAccessible(true);
    f.set(null, value);
  }

  /**
   * Dubbo logs through SLF4J, like Gatling, instead of guessing a logging framework and printing its
   * guess; unless the user chose otherwise with {@code -Ddubbo.application.logger}.
   */
  public static void quietLogging() {
    if (System.getProperty("dubbo.application.logger") == null) {
      System.setProperty("dubbo.application.logger", "slf4j");
    }
  }

  /**
   * For a process of its own (the benchmark provider): without a Logback configuration, Logback logs
   * everything at DEBUG; keep warnings, and only errors of Dubbo, which narrates its every step.
   */
  public static void quietConsoleLogging() {
    quietLogging();
    if (System.getProperty("logback.configurationFile") != null
        || !(org.slf4j.LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext logback)) {
      return;
    }
    if (DubboSetup.class.getClassLoader().getResource("logback.xml") == null
        && DubboSetup.class.getClassLoader().getResource("logback-test.xml") == null) {
      logback.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).setLevel(ch.qos.logback.classic.Level.WARN);
      logback.getLogger("org.apache.dubbo").setLevel(ch.qos.logback.classic.Level.ERROR);
    }
  }

  /** {@code dubbo} or {@code tri}; {@code what} names the input in the error. */
  public static String protocolName(String name, String what) {
    String value = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
    if (!PROTOCOLS.contains(value)) {
      throw new IllegalArgumentException(
          what + "=" + name + ": expected dubbo (Dubbo's own protocol, the default) or tri (Triple)");
    }
    return value;
  }

  /** A registry address such as {@code zookeeper://host:2181}; {@code what} names the input. */
  public static String registryAddress(String address, String what) {
    String value = address == null ? "" : address.trim();
    if (!REGISTRY.matcher(value).matches()) {
      throw new IllegalArgumentException(
          what + "=" + address + ": expected a registry address such as zookeeper://127.0.0.1:2181");
    }
    if (value.startsWith("zookeeper://") && !onClasspath("org.apache.curator.framework.CuratorFramework")) {
      throw new IllegalArgumentException(
          what + "=" + address + ": a zookeeper:// registry needs org.apache.curator:curator-recipes and curator-x-discovery on the classpath");
    }
    return value;
  }

  /**
   * The registry as this project uses it: services registered and found per interface (Dubbo 2 style,
   * which every Dubbo 2 and 3 provider understands), not used as a configuration or metadata center.
   */
  public static RegistryConfig registry(String address, Duration timeout) {
    return registry(address, timeout, DubboDiscovery.INTERFACE);
  }

  /**
   * As above, with {@code discovery}'s register mode. Application-level discovery also uses the
   * registry as metadata center: there a provider publishes which application serves an interface, and
   * a consumer looks it up.
   */
  public static RegistryConfig registry(String address, Duration timeout, DubboDiscovery discovery) {
    RegistryConfig registry = new RegistryConfig(address);
    registry.setTimeout((int) timeout.toMillis());
    registry.setSession((int) Math.max(timeout.toMillis() * 2, 4000));
    registry.setUseAsConfigCenter(false);
    registry.setUseAsMetadataCenter(discovery != DubboDiscovery.INTERFACE);
    registry.setRegisterMode(discovery.registerMode());
    return registry;
  }

  /** A port that was free a moment ago on {@code host}. */
  public static int freePort(String host) {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(host))) {
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port on " + host + ": " + e.getMessage());
    }
  }

  /** Why Dubbo did not start, in one line: the root cause, without Dubbo's URL parameters. */
  public static String startupCause(Throwable failure) {
    Throwable root = failure;
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof BindException) {
        return "address already in use (" + oneLine(t.getMessage()) + ")";
      }
      String message = t.getMessage();
      if (message != null && message.contains("zookeeper not connected")) {
        return "zookeeper not connected";
      }
      root = t;
    }
    String text = oneLine(root.getMessage());
    return text.isEmpty() ? root.getClass().getSimpleName() : shorten(text);
  }

  /** The first line of a message (Dubbo puts remote stack traces into them), URL parameters removed. */
  static String shorten(String message) {
    String text = URL_PARAMETERS.matcher(oneLine(message)).replaceAll("");
    return text.length() > 400 ? text.substring(0, 400) + "…" : text;
  }

  static String oneLine(String message) {
    if (message == null) {
      return "";
    }
    int end = message.indexOf('\n');
    return (end < 0 ? message : message.substring(0, end)).trim();
  }

  private static boolean onClasspath(String className) {
    try {
      Class.forName(className, false, DubboSetup.class.getClassLoader());
      return true;
    } catch (ClassNotFoundException e) {
      return false;
    }
  }
}
