package protocols.motan;

import com.weibo.api.motan.exception.MotanAbstractException;
import com.weibo.api.motan.exception.MotanBizException;
import com.weibo.api.motan.exception.MotanErrorMsgConstant;
import com.weibo.api.motan.exception.MotanFrameworkException;
import java.util.regex.Pattern;
import protocols.core.CallFailure;
import protocols.core.FailureDescriber;

/**
 * How Motan failures read in the report, as "STATUS: message (Motan error code)":
 *
 * <ul>
 *   <li>{@code UNAVAILABLE}: no connection to a provider ("NettyClient getChannel Error", "No available
 *       referers": Motan marks a provider down after 10 failures in a row and heartbeats it back);
 *   <li>{@code TIMEOUT}: no response within the request timeout;
 *   <li>{@code PROVIDER_EXCEPTION}: the provider's method threw; the message is its exception;
 *   <li>{@code REJECTED}, {@code NOT_FOUND}, {@code SERVICE_ERROR}, {@code FRAMEWORK_ERROR}: Motan's
 *       other error classes.
 * </ul>
 */
final class MotanFailures {

  private static final Pattern CALL_SPECIFIC =
      Pattern.compile(",? ?\\b(requestId|local|cost)=\\S+(?=\\s|$)");

  private MotanFailures() {}

  static CallFailure describe(Throwable failure) {
    if (failure instanceof MotanTimeoutException timeout) {
      return new CallFailure("TIMEOUT", timeout.getMessage());
    }
    if (failure instanceof MotanBizException biz) {
      Throwable cause = biz.getCause();
      String thrown = cause == null ? biz.getOriginMessage() : FailureDescriber.messageChain(cause);
      return new CallFailure("PROVIDER_EXCEPTION", "the provider threw " + thrown);
    }
    if (failure instanceof MotanAbstractException motan) {
      String status = status(motan);
      return new CallFailure(status, status + ": " + motanText(motan));
    }
    return FailureDescriber.DEFAULT.describe(failure);
  }

  private static String status(MotanAbstractException motan) {
    String message = String.valueOf(motan.getOriginMessage());
    switch (motan.getErrorCode()) {
      case MotanErrorMsgConstant.SERVICE_REJECT_ERROR_CODE:
        return "REJECTED";
      case MotanErrorMsgConstant.SERVICE_TIMEOUT_ERROR_CODE:
      case MotanErrorMsgConstant.SERVICE_TASK_CANCEL_ERROR_CODE:
        return "TIMEOUT";
      case MotanErrorMsgConstant.SERVICE_UNFOUND_ERROR_CODE:
        // the same code when a call meets a client the reconnect backoff has just closed
        return message.contains("ClusterSpi not created or destroyed") ? "UNAVAILABLE" : "NOT_FOUND";
      default:
        break;
    }
    if (message.contains("getChannel Error")
        || message.contains("No available referers")
        || message.contains("is unavailable")
        || message.contains("send request to server Error")
        || message.contains("failed to connect")) {
      return "UNAVAILABLE";
    }
    return motan instanceof MotanFrameworkException ? "FRAMEWORK_ERROR" : "SERVICE_ERROR";
  }

  /**
   * Motan's own message without its "error_message: ..., status: 503, error_code: ..." wrapping, and
   * without what differs from call to call (request id, local port, duration), so that the report
   * counts each kind of failure once.
   */
  private static String motanText(MotanAbstractException motan) {
    String origin = CALL_SPECIFIC.matcher(String.valueOf(motan.getOriginMessage())).replaceAll("");
    StringBuilder text = new StringBuilder(origin);
    if (motan.getCause() != null && motan.getCause() != motan) {
      text.append(" (cause: ").append(FailureDescriber.messageChain(motan.getCause())).append(')');
    }
    return text.append(" [Motan error ").append(motan.getErrorCode()).append(']').toString();
  }
}
