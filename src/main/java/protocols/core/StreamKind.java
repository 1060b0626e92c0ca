package protocols.core;

/** Which side streams: it decides which actions a stream builder offers. */
public enum StreamKind {
  /** One request (sent by {@code send}, which opens the stream), many replies. */
  SERVER_STREAM("serverStream"),
  /** Many requests, one reply. */
  CLIENT_STREAM("clientStream"),
  /** Many of both. */
  BIDI_STREAM("bidiStream");

  private final String dslName;

  StreamKind(String dslName) {
    this.dslName = dslName;
  }

  public String dslName() {
    return dslName;
  }
}
