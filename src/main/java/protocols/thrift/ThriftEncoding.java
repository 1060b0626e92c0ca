package protocols.thrift;

import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocolFactory;

/** How Thrift encodes messages on the wire: client and server must use the same. */
public enum ThriftEncoding {
  /** {@code TBinaryProtocol}, Thrift's default and the seed benchmark's. */
  BINARY(new TBinaryProtocol.Factory()),
  /** {@code TCompactProtocol}: variable-length integers, smaller messages. */
  COMPACT(new TCompactProtocol.Factory());

  private final TProtocolFactory factory;

  ThriftEncoding(TProtocolFactory factory) {
    this.factory = factory;
  }

  /** libthrift's factory of this protocol (stateless, shared). */
  public TProtocolFactory factory() {
    return factory;
  }

  /** "binary", "compact": as {@code -Dprotocol} reads it and messages show it. */
  public String label() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /** {@code binary} or {@code compact}, in any case; anything else is refused, naming {@code what}. */
  public static ThriftEncoding parse(String value, String what) {
    for (ThriftEncoding e : values()) {
      if (e.label().equalsIgnoreCase(value == null ? "" : value.trim())) {
        return e;
      }
    }
    throw new IllegalArgumentException(what + "=" + value + ": expected binary or compact");
  }
}
