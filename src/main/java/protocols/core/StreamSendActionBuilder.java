package protocols.core;

import io.gatling.javaapi.core.ActionBuilder;
import java.time.Duration;
import java.util.function.Function;

/**
 * {@code send(message)}: an action that sends one message on a stream and, as Gatling's WebSocket
 * {@code sendText(...).await(...)}, may wait in the same action for the replies: {@code
 * send(ping).awaitMessages(1)} is one step of a ping-pong, one action per message. Immutable.
 */
public final class StreamSendActionBuilder implements ActionBuilder {

  private final RpcStreamBuilder.Spec spec;
  /** The action for an await, or (null) for the send alone. */
  private final Function<RpcStreamBuilder.Await, ActionBuilder> action;
  private final ActionBuilder send;

  StreamSendActionBuilder(RpcStreamBuilder.Spec spec, Function<RpcStreamBuilder.Await, ActionBuilder> action) {
    this.spec = spec;
    this.action = action;
    this.send = action.apply(null);
  }

  /**
   * Sends, then the user waits in this action until {@code count} messages have arrived that no earlier
   * wait of this stream counted: what {@code awaitMessages(count)} after the send does, with the same
   * KOs, in one action. The wait bounds what the client buffers, so the user does not also wait for
   * the stream's readiness.
   */
  public ActionBuilder awaitMessages(int count) {
    return awaitMessages(count, null);
  }

  /** As {@link #awaitMessages(int)}, and a KO (the stream stays open) when {@code timeout} passes first. */
  public ActionBuilder awaitMessages(int count, Duration timeout) {
    return action.apply(RpcStreamBuilder.Await.of(spec, count, timeout));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    return send.asScala();
  }
}
