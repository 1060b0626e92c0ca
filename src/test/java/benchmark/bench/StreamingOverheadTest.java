package benchmark.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** bench/streaming.sh's options. */
class StreamingOverheadTest {

  @Test
  void kindsKeepTheirOrderWhateverTheOrderAsked() {
    assertEquals(
        "server,bidi",
        String.join(",", StreamingOverhead.kinds(" bidi, server").stream().map(k -> k[0]).toList()));
  }

  @Test
  void anUnknownKindIsRefusedNamingTheOptionAndWhatItTakes() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StreamingOverhead.kinds("bidi,client"));

    assertTrue(e.getMessage().contains("-Dkinds=bidi,client") && e.getMessage().contains("server,bidi"), e.getMessage());
  }
}
