package protocols.dubbo;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.dubbo.remoting.RemotingException;
import org.apache.dubbo.remoting.TimeoutException;
import org.apache.dubbo.rpc.RpcException;
import protocols.core.CallFailure;
import protocols.core.FailureDescriber;
import protocols.core.HostAndPort;

/**
 * A Dubbo failure as the report shows it: a short status ({@code TIMEOUT}, {@code NO_PROVIDER},
 * {@code NO_SUCH_METHOD}, {@code NETWORK}, ..., or the provider's exception class) and one readable line,
 * without the remote stack traces and URL parameters Dubbo puts into its messages.
 */
final class DubboFailures {

  private static final Pattern TIMEOUT_MS = Pattern.compile("timeout: (\\d+) ms");
  private static final Pattern CONNECT_FAILED = Pattern.compile("failed to connect to server /?(\\S+), error message is:([^:]*)");
  private static final Pattern NO_PROVIDER_SERVICE = Pattern.compile("for (?:the )?service (\\S+)");
  private static final Pattern NO_PROVIDER_REGISTRY = Pattern.compile("RegistryDirectory\\(registry: ([^)]+)\\)");
  private static final Pattern NO_PROVIDER_DIRECT = Pattern.compile("invokersToReconnect: \\d+\\[([^\\]]+)]");
  private static final Pattern EXCEPTION_PREFIX = Pattern.compile("^([a-z_$][\\w$]*\\.)+[A-Z][\\w$]*(Exception|Error): ");

  private DubboFailures() {}

  /** @param call what was called, for messages: {@code "say(byte[]) of some.Service"} */
  static FailureDescriber describer(String call) {
    return failure -> describe(failure, call);
  }

  static CallFailure describe(Throwable failure, String call) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (isTimeout(t)) {
        Matcher ms = TIMEOUT_MS.matcher(String.valueOf(t.getMessage()));
        return new CallFailure(
            "TIMEOUT",
            "no response to "
                + call
                + (ms.find() ? " within the timeout of " + ms.group(1) + " ms" : " in time")
                + " (Dubbo: "
                + firstClause(t.getMessage())
                + ")");
      }
      if (t.getCause() == t) {
        break;
      }
    }
    for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
      Matcher connect = CONNECT_FAILED.matcher(DubboSetup.oneLine(t.getMessage()));
      if (t instanceof RemotingException && connect.find()) {
        return new CallFailure(
            "UNAVAILABLE",
            "cannot connect to the provider at " + connect.group(1) + " (" + connect.group(2).trim() + ") for " + call);
      }
    }
    for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof RemotingException remoting) {
        String lost = connectionLost(remoting);
        if (lost != null) {
          return new CallFailure("UNAVAILABLE", lost + " " + call);
        }
      }
    }
    String text = clean(failure.getMessage());
    if (text.contains("No provider available")) {
      return new CallFailure("NO_PROVIDER", noProvider(text));
    }
    if (text.contains("No such method") || (failure instanceof RpcException rpc && rpc.getCode() == RpcException.METHOD_NOT_FOUND)) {
      return new CallFailure("NO_SUCH_METHOD", "the provider has no method " + call + " (" + text + ")");
    }
    if (failure instanceof RpcException rpc) {
      return new CallFailure(status(rpc), text.isEmpty() ? FailureDescriber.messageChain(rpc) : text);
    }
    if (failure instanceof RemotingException) {
      return new CallFailure("REMOTING", text.isEmpty() ? failure.getClass().getSimpleName() : text);
    }
    // the provider's own exception, as Dubbo rebuilt it, or one of this consumer
    CallFailure plain = FailureDescriber.DEFAULT.describe(failure);
    return new CallFailure(plain.status(), DubboSetup.shorten(plain.message()));
  }

  /** A connection that is gone, as Dubbo's client says it in three ways; null for any other failure. */
  private static String connectionLost(RemotingException e) {
    String message = String.valueOf(e.getMessage());
    java.net.InetSocketAddress remote = e.getRemoteAddress();
    String provider =
        "the provider" + (remote == null ? "" : " at " + new HostAndPort(remote.getHostString(), remote.getPort()));
    if (message.startsWith("message can not send, because channel is closed")) {
      return "the connection to " + provider + " is closed (Dubbo: message can not send, because channel is closed) for";
    }
    if (message.contains(" is inactive. Directly return the unFinished request")) {
      return provider + " closed the connection before replying to";
    }
    if (e.getCause() instanceof java.nio.channels.ClosedChannelException) {
      return "the connection to " + provider + " closed while sending";
    }
    return null;
  }

  /** No way to the provider: refused, dropped, or no connection to send on (Dubbo's invoker is down). */
  static boolean isUnreachable(Throwable failure) {
    String status = describe(failure, "").status();
    return status.equals("UNAVAILABLE") || status.equals("NO_PROVIDER") || status.equals("NETWORK") || status.equals("REMOTING");
  }

  /** The provider's own exception, as Dubbo rebuilt it from its reply. */
  static boolean isProviders(Throwable failure) {
    Throwable t = failure instanceof java.util.concurrent.CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    return t instanceof RpcException rpc
        ? rpc.isBiz()
        : !(t instanceof RemotingException || t instanceof java.util.concurrent.CancellationException || t instanceof protocols.core.CallTimeoutException);
  }

  /** The dubbo protocol's TimeoutException, or Triple's DEADLINE_EXCEEDED (an RpcException). */
  private static boolean isTimeout(Throwable t) {
    return t instanceof TimeoutException
        || (t instanceof RpcException rpc
            && (rpc.isTimeout() || String.valueOf(rpc.getMessage()).startsWith("DEADLINE_EXCEEDED")));
  }

  /** Dubbo words it differently for direct and registry addresses, with its internal state in between. */
  static String noProvider(String text) {
    Matcher service = NO_PROVIDER_SERVICE.matcher(text);
    if (!service.find()) {
      return text;
    }
    Matcher registry = NO_PROVIDER_REGISTRY.matcher(text);
    Matcher direct = NO_PROVIDER_DIRECT.matcher(text);
    String where =
        registry.find() ? " in the registry " + registry.group(1)
            : direct.find() ? " at " + direct.group(1)
            : "";
    return "No provider available for the service " + service.group(1) + where;
  }

  private static String status(RpcException e) {
    return switch (e.getCode()) {
      case RpcException.NETWORK_EXCEPTION -> "NETWORK";
      case RpcException.TIMEOUT_EXCEPTION, RpcException.TIMEOUT_TERMINATE -> "TIMEOUT";
      case RpcException.BIZ_EXCEPTION -> "PROVIDER";
      case RpcException.FORBIDDEN_EXCEPTION -> "FORBIDDEN";
      case RpcException.SERIALIZATION_EXCEPTION -> "SERIALIZATION";
      case RpcException.NO_INVOKER_AVAILABLE_AFTER_FILTER -> "NO_PROVIDER";
      case RpcException.LIMIT_EXCEEDED_EXCEPTION -> "LIMIT_EXCEEDED";
      case RpcException.REGISTRY_EXCEPTION -> "REGISTRY";
      case RpcException.METHOD_NOT_FOUND -> "NO_SUCH_METHOD";
      case RpcException.VALIDATION_EXCEPTION -> "VALIDATION";
      case RpcException.AUTHORIZATION_EXCEPTION -> "UNAUTHORIZED";
      default -> "RPC_ERROR";
    };
  }

  /** The message's first line, without the exception class names Dubbo prefixes to it. */
  private static String clean(String message) {
    String text = DubboSetup.shorten(message);
    String previous;
    do {
      previous = text;
      text = EXCEPTION_PREFIX.matcher(text).replaceFirst("");
    } while (!text.equals(previous));
    return text;
  }

  private static String firstClause(String message) {
    String text = DubboSetup.oneLine(message);
    int cut = text.indexOf(". start time");
    return cut > 0 ? text.substring(0, cut) : DubboSetup.shorten(text);
  }
}
