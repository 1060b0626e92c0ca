package protocols.grpc;

import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.Status;
import protocols.core.RpcStream;
import protocols.core.StreamListener;

/** A gRPC streaming call as the bridge drives it: grpc-java's ClientCall, with its flow control. */
final class GrpcStream<Req, Res> extends ClientCall.Listener<Res> implements RpcStream<Req> {

  private final ClientCall<Req, Res> call;
  private final StreamListener<Res> listener;

  private GrpcStream(ClientCall<Req, Res> call, StreamListener<Res> listener) {
    this.call = call;
    this.listener = listener;
  }

  static <Req, Res> GrpcStream<Req, Res> start(
      ClientCall<Req, Res> call, Metadata headers, StreamListener<Res> listener) {
    GrpcStream<Req, Res> stream = new GrpcStream<>(call, listener);
    call.start(stream, headers);
    call.request(1); // then one more per message the bridge has handled
    return stream;
  }

  @Override
  public void send(Req message) {
    call.sendMessage(message);
  }

  @Override
  public boolean isReady() {
    return call.isReady();
  }

  @Override
  public void halfClose() {
    call.halfClose();
  }

  @Override
  public void cancel(String reason) {
    call.cancel(reason, null);
  }

  @Override
  public void request(int messages) {
    call.request(messages);
  }

  @Override
  public void onMessage(Res message) {
    listener.onMessage(message);
  }

  @Override
  public void onReady() {
    listener.onReady();
  }

  @Override
  public void onClose(Status status, Metadata trailers) {
    listener.onClose(status.isOk() ? null : GrpcFailures.describe(status.asRuntimeException(trailers)));
  }
}
