package protocols.grpc;

import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import java.util.concurrent.CompletableFuture;

/** One unary call as a future; cancelling the future cancels the call. */
final class UnaryCall<Res> extends CompletableFuture<Res> {

  private final ClientCall<?, Res> call;

  private UnaryCall(ClientCall<?, Res> call) {
    this.call = call;
  }

  static <Req, Res> UnaryCall<Res> start(ClientCall<Req, Res> call, Req request, Metadata headers) {
    UnaryCall<Res> future = new UnaryCall<>(call);
    call.start(future.new Listener(), headers);
    call.request(2); // a second message would be a protocol violation, reported by onClose
    call.sendMessage(request);
    call.halfClose();
    return future;
  }

  @Override
  public boolean cancel(boolean mayInterruptIfRunning) {
    call.cancel("cancelled by the load test (timeout)", null);
    return super.cancel(mayInterruptIfRunning);
  }

  private final class Listener extends ClientCall.Listener<Res> {
    private Res response;

    @Override
    public void onMessage(Res message) {
      if (response != null) {
        call.cancel("more than one response to a unary call", null);
        return;
      }
      response = message;
    }

    @Override
    public void onClose(Status status, Metadata trailers) {
      if (!status.isOk()) {
        completeExceptionally(status.asRuntimeException(trailers));
      } else if (response == null) {
        completeExceptionally(
            Status.INTERNAL.withDescription("the server closed the call without a response").asRuntimeException());
      } else {
        complete(response);
      }
    }
  }
}
