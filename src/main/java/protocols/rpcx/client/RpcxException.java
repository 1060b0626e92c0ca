package protocols.rpcx.client;

/**
 * A failed rpcx call, with a short status for the report ({@link #SERVER_ERROR}, {@link #TIMEOUT}, ...)
 * and a message that says what happened.
 */
public final class RpcxException extends RuntimeException {

  /** The server answered with an error reply; the message is the server's ({@code __rpcx_error__}). */
  public static final String SERVER_ERROR = "SERVER_ERROR";

  /** No reply within the call's timeout. */
  public static final String TIMEOUT = "TIMEOUT";

  /** No connection, or the connection was lost before the reply arrived. */
  public static final String CONNECTION = "CONNECTION";

  /** The server sent bytes that are not a valid rpcx frame; the connection was closed. */
  public static final String PROTOCOL_ERROR = "PROTOCOL_ERROR";

  /** The reply's payload could not be decoded into the expected type. */
  public static final String DECODE = "DECODE";

  private final String status;

  public RpcxException(String status, String message) {
    this(status, message, null);
  }

  public RpcxException(String status, String message, Throwable cause) {
    super(message, cause, false, false);
    this.status = status;
  }

  public String status() {
    return status;
  }
}
