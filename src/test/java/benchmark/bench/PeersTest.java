package benchmark.bench;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.testkit.SystemProperties;

/** The peers command's settings, refused before anything starts when they cannot be run alike by every peer. */
class PeersTest {

  private static String refusal(Map<String, String> properties) {
    return assertThrows(IllegalArgumentException.class, () -> SystemProperties.with(properties, Peers::execute)).getMessage();
  }

  @Test
  void aLevelThatGrpcJavasChannelsCannotShareEvenlyIsRefused() {
    String message = refusal(Map.of("peers", "grpc-java", "levels", "10", "connections", "4"));

    assertTrue(message.startsWith("-Dlevels=10 with -Dconnections=4: expected every level to be a multiple"), message);
  }

  @Test
  void anUnknownPeerIsRefusedWithTheKnownOnes() {
    String message = refusal(Map.of("peers", "ghz,wrk"));

    assertEquals("-Dpeers: unknown peer 'wrk'; expected some of ghz,grpc-java,rpcx", message);
  }

  @Test
  void aHoldInMillisecondsIsRefusedForGrpcJavasWholeSeconds() {
    String message = refusal(Map.of("hold", "2500ms"));

    assertTrue(message.startsWith("-Dhold=2500ms: expected whole seconds"), message);
  }
}
