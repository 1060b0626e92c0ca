package benchmark;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class RateSettingsTest {

  private static RateSettings of(String... keyValues) {
    Properties p = new Properties();
    for (int i = 0; i < keyValues.length; i += 2) {
      p.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return RateSettings.from(p, LoadSettings.from(p));
  }

  @Test
  void withoutRateTheRunIsTheClosedStaircase() {
    assertFalse(of().paced());
  }

  @Test
  void aConstantRateSpacesCallsEvenly() {
    RateSettings r = of("rate", "1000", "ramp", "0", "hold", "10");
    assertEquals(List.of(1000), r.rates());
    assertEquals(0, r.offsetNanos(0));
    assertEquals(1_000_000, r.offsetNanos(1));
    assertEquals(2_500_000_000L, r.offsetNanos(2500));
  }

  @Test
  void anInjectorOfThreeSchedulesAThirdOfEveryStep() {
    RateSettings whole = of("rates", "300,600", "ramp", "1", "hold", "10");
    Properties p = new Properties();
    p.setProperty("injectors", "3");
    p.setProperty("injector", "2");
    RateSettings third = whole.sharedBy(Injectors.from(p));

    assertEquals(whole.totalCalls() / 3.0, third.totalCalls(), 1);
    assertEquals(whole.offsetNanos(300), third.offsetNanos(100), 1e3, "the same schedule, three times as sparse");
    assertEquals(whole.steps(), third.steps(), "the steps keep their configured rates and windows");
  }

  @Test
  void aRampFromZeroDueItsCallsAsTheIntegralOfTheRate() {
    // 0 to 100 calls/s over 10 s: 500 calls, the k-th due at sqrt(2 k / 10) s
    RateSettings r = of("rates", "100", "ramp", "10", "hold", "10");
    assertEquals(Math.sqrt(2 * 200 / 10.0) * 1e9, r.offsetNanos(200), 1e3);
    // the hold then spaces them 10 ms apart from the end of the ramp
    assertEquals(10e9 + 0.5e9, r.offsetNanos(550), 1e3);
  }

  @Test
  void stepsNameTheirHoldWindowsLeavingOutRampsAndWarmUp() {
    RateSettings r = of("rates", "10,20", "ramp", "1", "hold", "5", "warmup", "2");
    assertEquals(
        List.of(new RateSettings.Step(10, 3_000_000_000L, 8_000_000_000L), new RateSettings.Step(20, 9_000_000_000L, 14_000_000_000L)),
        r.steps());
    assertEquals(Duration.ofSeconds(14), r.totalDuration());
  }

  @Test
  void aPacedPoolCoversTheLargestStepsRateForTheWholeTimeout() {
    RateSettings steps = of("rates", "1000,4000", "ramp", "0", "hold", "60");
    // every reply may take the whole 11 s: a user per slot of those 11 s at the highest rate
    assertEquals(44_000, steps.pacedPool(Duration.ofSeconds(11)));
    Properties p = new Properties();
    p.setProperty("injectors", "2");
    p.setProperty("injector", "1");
    assertEquals(22_000, steps.sharedBy(Injectors.from(p)).pacedPool(Duration.ofSeconds(11)), "this injector's share");
  }

  @Test
  void aPacedPoolIsNoLargerThanTheScheduleNorTheCap() {
    assertEquals(500, of("rate", "100", "ramp", "0", "hold", "5").pacedPool(Duration.ofSeconds(11)), "500 calls need 500 users at most");
    assertEquals(RateSettings.MAX_POOL, of("rate", "20000", "ramp", "0", "hold", "60").pacedPool(Duration.ofSeconds(11)),
        "20,000 calls/s × 11 s is capped");
  }

  @Test
  void rateModeSharesConnectionsUnlessTold() {
    assertEquals(protocols.core.ConnectionModel.shared(8), LoadSettings.from(props("rate", "10")).connections());
    assertEquals(LoadSettings.from(new Properties()).connections(), LoadSettings.from(props("levels", "5")).connections());
  }

  @Test
  void badRatesAreNamedWithTheExpectedForm() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> of("rates", "10,fast"));
    assertTrue(e.getMessage().startsWith("-Drates=10,fast: expected comma-separated positive integers (calls per second)"), e.getMessage());
    e = assertThrows(IllegalArgumentException.class, () -> of("rate", "10", "rates", "20"));
    assertTrue(e.getMessage().contains("expected one of them, not both"), e.getMessage());
  }

  private static Properties props(String key, String value) {
    Properties p = new Properties();
    p.setProperty(key, value);
    return p;
  }
}
