package protocols.core;

/** What a framework adapter reports of an open stream, from any thread. */
public interface StreamListener<Res> {

  void onMessage(Res message);

  /** The stream takes messages again after {@link RpcStream#isReady()} said it would not. */
  void onReady();

  /** The stream is over: {@code failure} is null when it closed with OK. Called exactly once. */
  void onClose(CallFailure failure);
}
