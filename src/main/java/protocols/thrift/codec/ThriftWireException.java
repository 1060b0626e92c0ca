package protocols.thrift.codec;

import io.netty.handler.codec.CorruptedFrameException;

/**
 * Bytes from the server that are not a Thrift message of the expected transport and protocol. When they
 * are recognisably another transport or protocol, {@link #mismatch()} says so: the settings are wrong,
 * not the server. Either way the connection cannot be trusted any more.
 */
public final class ThriftWireException extends CorruptedFrameException {

  /** The status of a KO for a transport mismatch (framed against buffered). */
  public static final String TRANSPORT_MISMATCH = "TRANSPORT_MISMATCH";
  /** The status of a KO for a protocol mismatch (binary against compact), same transport. */
  public static final String PROTOCOL_MISMATCH = "PROTOCOL_MISMATCH";
  /** The status of a KO for bytes that are no Thrift message the client recognises. */
  public static final String MALFORMED = "PROTOCOL_ERROR";

  private final String status;

  ThriftWireException(String status, String message) {
    super(message);
    this.status = status;
  }

  ThriftWireException(String message, Throwable cause) {
    super(message, cause);
    this.status = MALFORMED;
  }

  /** {@link #TRANSPORT_MISMATCH}, {@link #PROTOCOL_MISMATCH} or {@link #MALFORMED}. */
  public String status() {
    return status;
  }

  public boolean mismatch() {
    return !MALFORMED.equals(status);
  }
}
