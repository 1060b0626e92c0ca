package protocols.core;

import java.util.concurrent.CompletableFuture;

/**
 * The future of a call that its client ends by itself within the call's timeout ({@link
 * CallContext#timeout()}: its own timer, set to that timeout, fails it), so the bridge adds no backstop
 * timer of its own: one timer per call instead of two. What is
 * derived from it alone ({@code thenApply}, {@code handle}, {@code whenComplete}…) is self-timed too;
 * never derive one that also waits for something else ({@code thenCompose}, {@code thenCombine}).
 */
public class SelfTimedFuture<T> extends CompletableFuture<T> {

  @Override
  public <U> CompletableFuture<U> newIncompleteFuture() {
    return new SelfTimedFuture<>();
  }
}
