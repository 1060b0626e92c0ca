package protocols.motan;

/**
 * A Motan registry as users write it: {@code <registry protocol>://<address>}, for example {@code
 * zookeeper://zk1:2181} or {@code direct://10.0.0.1:8002,10.0.0.2:8002}.
 */
public record MotanRegistry(String protocol, String address) {

  static MotanRegistry parse(String text) {
    return parse(text, "motan.registry");
  }

  /** {@code what} names the setting in the error message. */
  public static MotanRegistry parse(String text, String what) {
    String value = text == null ? "" : text.trim();
    int separator = value.indexOf("://");
    String expected =
        what + "=" + text + ": expected <registry protocol>://<address>, for example zookeeper://localhost:2181";
    if (separator < 1 || separator + 3 >= value.length()) {
      throw new IllegalArgumentException(expected);
    }
    String protocol = value.substring(0, separator);
    if (!protocol.matches("[A-Za-z][A-Za-z0-9_-]*")) {
      throw new IllegalArgumentException(expected);
    }
    return new MotanRegistry(protocol, value.substring(separator + 3));
  }

  @Override
  public String toString() {
    return protocol + "://" + address;
  }
}
