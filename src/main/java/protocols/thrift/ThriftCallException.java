package protocols.thrift;

/** A failed Thrift call as the report shows it: a short status and a readable message. */
public final class ThriftCallException extends RuntimeException {

  /** Nobody answered on the target's port, or the connection attempt timed out. */
  public static final String CONNECT_FAILED = "CONNECT_FAILED";
  /** The connection broke while the call was on it (the server closed it, a reset). */
  public static final String CONNECTION_LOST = "CONNECTION_LOST";
  /** The call was sent but its response did not arrive within the timeout. */
  public static final String TIMEOUT = "TIMEOUT";
  /** Every connection of the pool stayed busy until the call's timeout: it was never sent. */
  public static final String POOL_EXHAUSTED = "POOL_EXHAUSTED";
  /** The server answered with a TApplicationException (an exception the IDL does not declare...). */
  public static final String APPLICATION_EXCEPTION = "APPLICATION_EXCEPTION";
  /** The call could not be encoded or sent by the client (a required field missing...). */
  public static final String CLIENT_ERROR = "CLIENT_ERROR";
  /** The simulation is over: the pool is closed. */
  public static final String CLOSED = "CLOSED";

  private final String status;

  ThriftCallException(String status, String message, Throwable cause) {
    super(message, cause, false, false);
    this.status = status;
  }

  /** One of the constants above, or the simple name of an exception the IDL declares. */
  public String status() {
    return status;
  }
}
