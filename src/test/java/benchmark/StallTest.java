package benchmark;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StallTest {

  @Test
  void aReplyDueDuringThePauseWaitsForItsEnd() {
    Stall stall = Stall.parse("1s/10s", "--stall");
    assertEquals(1_000_000_000L, stall.waitNanos(0));
    assertEquals(600_000_000L, stall.waitNanos(10_400_000_000L));
    assertEquals(0, stall.waitNanos(1_000_000_000L));
    assertEquals(0, stall.waitNanos(9_999_000_000L));
  }

  @Test
  void noStallByDefault() {
    assertTrue(Stall.parse(null, "-Dstall").none());
    assertEquals(0, Stall.NONE.waitNanos(0));
  }

  @Test
  void theServerMainsTakeStallAsAnOption() {
    ServerArgs args = ServerArgs.parse(new String[] {"--stall", "300ms/2s"}, 1);
    assertEquals(new Stall(Duration.ofMillis(300), Duration.ofSeconds(2)), args.stall());
  }

  @Test
  void aMalformedStallIsNamedWithTheExpectedForm() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Stall.parse("1s", "-Dstall"));
    assertTrue(e.getMessage().startsWith("-Dstall=1s: expected <pause>/<period>, for example 1s/10s"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> Stall.parse("10s/1s", "--stall"));
    assertTrue(e.getMessage().contains("the pause must be shorter than its period"), e.getMessage());
  }
}
