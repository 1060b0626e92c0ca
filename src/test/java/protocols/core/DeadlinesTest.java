package protocols.core;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The bridge's backstop: only for calls whose client does not time them itself. */
class DeadlinesTest {

  private static final Duration TIMEOUT = Duration.ofMillis(100);

  @Test
  void aCallThatNobodyTimesFailsWithTheBridgesTimeoutAfterTheBackstop() {
    CompletableFuture<String> bounded = Deadlines.bound(new CompletableFuture<>(), TIMEOUT);

    ExecutionException e = assertThrows(ExecutionException.class, () -> bounded.get(5, TimeUnit.SECONDS));
    assertInstanceOf(CallTimeoutException.class, e.getCause());
  }

  @Test
  void aSelfTimedCallAndWhatIsDerivedFromItGetNoBackstop() {
    SelfTimedFuture<String> call = new SelfTimedFuture<>();
    CompletableFuture<Integer> decoded = call.thenApply(String::length);

    assertInstanceOf(SelfTimedFuture.class, decoded, "thenApply keeps the promise of its source");
    assertSame(decoded, Deadlines.bound(decoded, TIMEOUT));
  }

  @Test
  void aPlainCallIsBoundByAFutureOfTheBridge() {
    CompletableFuture<String> call = new CompletableFuture<>();

    assertNotSame(call, Deadlines.bound(call, TIMEOUT));
  }
}
