package protocols.dubbo;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.apache.dubbo.rpc.RpcContext;
import protocols.core.CallContext;
import protocols.core.FailureDescriber;
import protocols.core.RpcCall;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcRequestBuilder;

/**
 * What Dubbo's typed and generic requests share: the protocol, the per-call timeout, the start-up of the
 * simulation's consumer, and readable failures.
 */
abstract class DubboRequestBuilder<B extends DubboRequestBuilder<B, Req, Res>, Req, Res>
    extends RpcRequestBuilder<B, DubboProtocol, DubboClient, Req, Res> {

  private static final String TIMEOUT_ATTACHMENT = "timeout";

  protected final ServiceKey service;

  DubboRequestBuilder(Common<Req> common, ServiceKey service) {
    super(common);
    this.service = service;
  }

  /** Sends the request through the service's proxy; called on the virtual user's thread. */
  abstract CompletionStage<Res> invoke(DubboClient client, Req request, CallContext context) throws Exception;

  /** "say(byte[]) of some.Service", for messages. */
  abstract String callName();

  @Override
  protected final RpcProtocolKey<DubboProtocol, DubboClient> protocolKey() {
    return DubboProtocol.KEY;
  }

  @Override
  protected final FailureDescriber failureDescriber() {
    return DubboFailures.describer(callName());
  }

  @Override
  protected final RpcCall<DubboClient, Req, Res> call(DubboProtocol protocol) {
    return (client, request, context) -> {
      // this call's timeout, read by Dubbo when it sends; the attachment is the thread's, so remove it
      RpcContext.getClientAttachment().setAttachment(TIMEOUT_ATTACHMENT, millis(context.timeout()));
      CompletionStage<Res> stage;
      try {
        stage = invoke(client, request, context);
      } catch (RuntimeException e) {
        if (DubboFailures.isUnreachable(e)) { // a failure thrown here is never the provider's answer
          client.unreachable(e);
        }
        throw e;
      } finally {
        RpcContext.getClientAttachment().removeAttachment(TIMEOUT_ATTACHMENT);
      }
      if (stage == null) {
        throw new IllegalStateException(
            callName() + " returned no future: use .syncMethod(...) for a method that returns its result directly");
      }
      CompletableFuture<Res> future = stage instanceof CompletableFuture<Res> f ? f : stage.toCompletableFuture();
      // noted before the bridge sees the outcome, so that the user's next call already finds the client replaced
      return future.whenComplete((reply, failure) -> noteOutcome(client, failure));
    };
  }

  /** For the reconnect backoff: a reply or the provider's own exception is an answer, no way through is not. */
  private static void noteOutcome(DubboClient client, Throwable failure) {
    if (failure == null) {
      client.hasBeenAnswered();
    } else if (DubboFailures.isUnreachable(failure)) {
      client.unreachable(failure);
    } else if (DubboFailures.isProviders(failure)) {
      client.hasBeenAnswered();
    }
  }

  /** Starts the simulation's Dubbo consumer while Gatling builds the scenario (see {@link DubboConsumer#prepare}). */
  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    io.gatling.core.action.builder.ActionBuilder action = super.asScala();
    return (ctx, next) -> {
      DubboProtocol protocol = ctx.protocolComponentsRegistry().components(DubboProtocol.KEY).protocol();
      protocol.consumer.prepare(ctx.coreComponents().actorSystem(), service);
      return action.build(ctx, next);
    };
  }

  private static String millis(Duration timeout) {
    return String.valueOf(Math.min(Integer.MAX_VALUE, Math.max(1, timeout.toMillis())));
  }

}
