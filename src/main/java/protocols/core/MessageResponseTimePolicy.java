package protocols.core;

/** From when the response time of each received message of a stream is counted (Gatling's gRPC names). */
public enum MessageResponseTimePolicy {
  /** From the moment the stream was opened (the default). */
  FromStreamStart,
  /** From the last message this user sent on the stream before it, or the stream's start. */
  FromLastMessageSent,
  /** From the previous message received on the stream, or the stream's start. */
  FromLastMessageReceived
}
