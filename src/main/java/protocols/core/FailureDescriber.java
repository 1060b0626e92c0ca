package protocols.core;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Turns a framework's exception into the status and message of a KO. */
@FunctionalInterface
public interface FailureDescriber {

  CallFailure describe(Throwable failure);

  /** The exception's class as status; its message and the messages of its causes as message. */
  FailureDescriber DEFAULT =
      failure -> new CallFailure(failure.getClass().getSimpleName(), messageChain(failure));

  /** Removes the wrappers futures put around the real failure. */
  static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    while ((t instanceof CompletionException || t instanceof ExecutionException)
        && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }

  /** "message (cause: message)" with every distinct message of the cause chain. */
  static String messageChain(Throwable failure) {
    StringBuilder text = new StringBuilder(describeOne(failure));
    Throwable cause = failure.getCause();
    int depth = 0;
    while (cause != null && cause != failure && depth++ < 5) {
      String next = describeOne(cause);
      if (text.indexOf(next) < 0) {
        text.append(" (cause: ").append(next).append(')');
      }
      failure = cause;
      cause = cause.getCause();
    }
    return text.toString();
  }

  private static String describeOne(Throwable t) {
    String message = t.getMessage();
    return message == null || message.isBlank()
        ? t.getClass().getSimpleName()
        : t.getClass().getSimpleName() + ": " + message;
  }
}
