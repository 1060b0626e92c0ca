package protocols.rpcx.codec;

import io.netty.handler.codec.CorruptedFrameException;

/** Bytes that are not a valid rpcx frame. The connection they came on cannot be trusted any more. */
public final class RpcxFrameException extends CorruptedFrameException {

  public RpcxFrameException(String message) {
    super(message);
  }

  public RpcxFrameException(String message, Throwable cause) {
    super(message, cause);
  }
}
