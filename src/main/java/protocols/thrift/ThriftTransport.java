package protocols.thrift;

/** How Thrift messages are delimited on the connection: client and server must use the same. */
public enum ThriftTransport {
  /** Each message after a 4-byte big-endian length ({@code TFramedTransport}); non-blocking servers need it. */
  FRAMED,
  /**
   * Messages back to back with no length ({@code TSocket}, {@code TBufferedTransport}): the default of
   * many servers, among them Python's {@code TSimpleServer} and libthrift's {@code TThreadPoolServer}.
   */
  BUFFERED;

  /** "framed", "buffered": as {@code -Dtransport} reads it and messages show it. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** {@code framed} or {@code buffered}, in any case; anything else is refused, naming {@code what}. */
  public static ThriftTransport parse(String value, String what) {
    for (ThriftTransport t : values()) {
      if (t.label().equalsIgnoreCase(value == null ? "" : value.trim())) {
        return t;
      }
    }
    throw new IllegalArgumentException(what + "=" + value + ": expected framed or buffered");
  }
}
