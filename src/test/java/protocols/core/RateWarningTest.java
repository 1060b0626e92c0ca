package protocols.core;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

/** When the record says the injector did not keep the rate. */
class RateWarningTest {

  @Test
  void aKeptRateHasNoWarning() {
    assertNull(LatencyRecord.rateWarning(1000, 10, 1000, 995));
  }

  @Test
  void anAchievedRateBelow99PercentIsFlagged() {
    String warning = LatencyRecord.rateWarning(1000, 0, 1000, 980);
    assertTrue(warning.startsWith("THE INJECTOR DID NOT KEEP THE RATE: achieved 980.0 calls/s of 1000.0 scheduled (98.0 %"), warning);
  }

  @Test
  void moreThanOnePercentOfSendsLateIsFlagged() {
    String warning = LatencyRecord.rateWarning(1000, 11, 1000, 1000);
    assertTrue(warning.contains("11 of 1000 calls (1.1 %) sent more than 1 ms after their intended time"), warning);
  }
}
