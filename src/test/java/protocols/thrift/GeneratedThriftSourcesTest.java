package protocols.thrift;

import static org.junit.jupiter.api.Assertions.*;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The committed Java of the Thrift IDL files is what the Thrift compiler generates from them now. */
class GeneratedThriftSourcesTest {

  @Test
  void theCommittedSourcesMatchTheIdlFiles() throws Exception {
    Process check =
        new ProcessBuilder("bash", "thrift/check-generated.sh").redirectErrorStream(true).start();
    String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(check.waitFor(120, TimeUnit.SECONDS), "the check ended");

    assertEquals(0, check.exitValue(), "thrift/check-generated.sh (needs thrift-compiler 0.17.0; .ci/run installs it):\n" + output);
  }
}
