package protocols.core;

/** How many streams are open in this JVM: what a test counts to show none leaked. */
public final class OpenStreams {

  private OpenStreams() {}

  public static int count() {
    return OpenStream.openCount();
  }
}
