package protocols.thrift;

/** A failed Thrift call as the report shows it: a short status and a readable message. */
public final class ThriftCallException extends RuntimeException {

  /** Nobody answered on the target's port, or the connection attempt timed out. */
  public static final String CONNECT_FAILED = "CONNECT_FAILED";
  /** The connection broke while the call was on it (the server closed it, a reset). */
  public static final String CONNECTION_LOST = "CONNECTION_LOST";
  /** The call was sent but its response did not arrive within the timeout. */
  public static final String TIMEOUT = "TIMEOUT";
  /** The server answered with a TApplicationException (an exception the IDL does not declare...). */
  public static final String APPLICATION_EXCEPTION = "APPLICATION_EXCEPTION";
  /** The call could not be encoded or sent by the client (a required field missing...). */
  public static final String CLIENT_ERROR = "CLIENT_ERROR";
  /** The simulation is over: the pool is closed. */
  public static final String CLOSED = "CLOSED";
  /** The server speaks another transport (framed against buffered): see the message. */
  public static final String TRANSPORT_MISMATCH = protocols.thrift.codec.ThriftWireException.TRANSPORT_MISMATCH;
  /** The server speaks another protocol (binary against compact): see the message. */
  public static final String PROTOCOL_MISMATCH = protocols.thrift.codec.ThriftWireException.PROTOCOL_MISMATCH;
  /** The server sent bytes that are no Thrift message: the connection was closed. */
  public static final String PROTOCOL_ERROR = protocols.thrift.codec.ThriftWireException.MALFORMED;

  private final String status;

  public ThriftCallException(String status, String message, Throwable cause) {
    super(message, cause, false, false);
    this.status = status;
  }

  /** One of the constants above, or the simple name of an exception the IDL declares. */
  public String status() {
    return status;
  }
}
