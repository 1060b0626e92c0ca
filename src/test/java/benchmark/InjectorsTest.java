package benchmark;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Instant;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class InjectorsTest {

  private static Injectors injectors(String... keyValues) {
    Properties p = new Properties();
    for (int i = 0; i < keyValues.length; i += 2) {
      p.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return Injectors.from(p);
  }

  private static String error(String... keyValues) {
    return assertThrows(IllegalArgumentException.class, () -> injectors(keyValues)).getMessage();
  }

  @Test
  void sharesDifferByOneUserAtMostAndAddUpToTheLevel() {
    for (int users : new int[] {1, 2, 7, 100, 5001}) {
      int sum = 0, min = Integer.MAX_VALUE, max = 0;
      for (int i = 0; i < 3; i++) {
        int share = injectors("injectors", "3", "injector", String.valueOf(i)).share(users);
        sum += share;
        min = Math.min(min, share);
        max = Math.max(max, share);
      }
      assertEquals(users, sum, users + " users");
      assertTrue(max - min <= 1, users + " users: shares from " + min + " to " + max);
    }
  }

  @Test
  void aRateIsSharedEquallyAndAddsUp() {
    double sum = 0;
    for (int i = 0; i < 3; i++) {
      sum += injectors("injectors", "3", "injector", String.valueOf(i)).shareOfRate(1000);
    }
    assertEquals(1000, sum, 1e-9);
  }

  @Test
  void withoutPropertiesOneInjectorRunsTheWholeLoadAtOnce() {
    Injectors one = injectors();

    assertEquals(Injectors.ONE, one);
    assertEquals(500, one.share(500));
  }

  @Test
  void startAtIsAnIsoInstant() {
    assertEquals(Instant.parse("2026-12-01T12:00:00Z"), injectors("startAt", "2026-12-01T12:00:00Z").startAt());
  }

  @Test
  void aStartInstantAlreadyPastIsRefused() {
    Injectors late = injectors("startAt", "2026-12-01T12:00:00Z");
    String message = assertThrows(IllegalArgumentException.class, () -> late.notPast(late.startAt().toEpochMilli() + 1)).getMessage();

    assertTrue(message.startsWith("-DstartAt=2026-12-01T12:00:00Z: that instant has passed"), message);
  }

  @Test
  void badValuesNameTheirPropertyAndTheExpectedForm() {
    assertEquals("-Dinjectors=two: expected a positive number of injectors, for example 3", error("injectors", "two"));
    assertEquals("-Dinjectors=0: expected a positive number of injectors", error("injectors", "0", "injector", "0"));
    assertEquals("-Dinjector=3: expected an index from 0 to 2 (-Dinjectors=3)", error("injectors", "3", "injector", "3"));
    assertEquals("-Dinjectors=3 without -Dinjector: expected -Dinjector=<0 to 2>, this injector's index", error("injectors", "3"));
    assertTrue(error("startAt", "noon").startsWith("-DstartAt=noon: expected an ISO-8601 instant"), error("startAt", "noon"));
  }
}
