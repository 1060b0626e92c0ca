package benchmark;

import static org.junit.jupiter.api.Assertions.*;

import java.time.Duration;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;

class LoadSettingsTest {

  private static LoadSettings settings(String... keyValues) {
    Properties properties = new Properties();
    for (int i = 0; i < keyValues.length; i += 2) {
      properties.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return LoadSettings.from(properties);
  }

  private static String error(String... keyValues) {
    return assertThrows(IllegalArgumentException.class, () -> settings(keyValues)).getMessage();
  }

  @Test
  void defaultsAreTheSeedLevelsAndAnEmbeddedServerWithAConnectionPerUser() {
    LoadSettings defaults = settings();

    assertEquals(List.of(100, 500, 1000, 2000, 5000), defaults.levels());
    assertTrue(defaults.embedded());
    assertEquals(ConnectionModel.perUser(), defaults.connections());
    assertTrue(defaults.totalDuration().compareTo(Duration.ofMinutes(3)) < 0, "a default run stays under 3 minutes");
  }

  @Test
  void durationsTakePlainSecondsOrAUnit() {
    LoadSettings s = settings("ramp", "30", "hold", "2m", "serviceTime", "10ms");

    assertEquals(Duration.ofSeconds(30), s.ramp());
    assertEquals(Duration.ofMinutes(2), s.hold());
    assertEquals(Duration.ofMillis(10), s.serviceTime());
  }

  @Test
  void aTargetAndSharedConnectionsAreParsed() {
    LoadSettings s = settings("target", "10.1.2.3:8972", "connections", "4");

    assertEquals(new HostAndPort("10.1.2.3", 8972), s.target());
    assertEquals(ConnectionModel.shared(4), s.connections());
  }

  @Test
  void nonNumericLevelsAreRefusedNamingTheProperty() {
    assertEquals(
        "-Dlevels=100,abc: expected comma-separated positive integers (concurrent users), for example 100,500,1000,2000,5000",
        error("levels", "100,abc"));
  }

  @Test
  void emptyLevelsAreRefused() {
    assertTrue(error("levels", "").startsWith("-Dlevels=: expected comma-separated positive integers"));
  }

  @Test
  void aNegativeLevelIsRefused() {
    assertTrue(error("levels", "100,-5").startsWith("-Dlevels=100,-5: expected"));
  }

  @Test
  void aNegativeDurationIsRefusedNamingTheProperty() {
    assertEquals(
        "-Dramp=-5: expected a non-negative duration: seconds (30) or with a unit (500ms, 30s, 2m, 1h)",
        error("ramp", "-5"));
  }

  @Test
  void aMalformedTargetIsRefusedNamingTheExpectedForm() {
    assertEquals("-Dtarget=localhost: expected host:port, for example localhost:50051", error("target", "localhost"));
  }

  @Test
  void aMalformedConnectionCountIsRefused() {
    assertEquals(
        "-Dconnections=0: expected per-user or a positive number of shared connections",
        error("connections", "0"));
  }
}
