package protocols.core;

/** A target address as users write it: {@code host:port}, {@code [::1]:port}. */
public record HostAndPort(String host, int port) {

  public HostAndPort {
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("host must not be empty");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port must be 1-65535, got " + port);
    }
  }

  /**
   * Parses {@code text}; {@code what} names the input in the error, for example {@code "-Dtarget"}.
   */
  public static HostAndPort parse(String text, String what) {
    String value = text == null ? "" : text.trim();
    int colon = value.lastIndexOf(':');
    String host = colon > 0 ? value.substring(0, colon) : "";
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    try {
      return new HostAndPort(host, Integer.parseInt(value.substring(colon + 1)));
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          what + "=" + text + ": expected host:port, for example localhost:50051");
    }
  }

  @Override
  public String toString() {
    return (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
  }
}
