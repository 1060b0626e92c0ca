package benchmark.bench;

import static org.junit.jupiter.api.Assertions.*;

import org.junit.jupiter.api.Test;

class MachineReferenceTest {

  @Test
  void theReferenceIsTimedWhenTheBenchStartsAndAgainWhenItsResultsAreWritten() {
    MachineReference.atStart();

    String line = MachineReference.line();

    assertTrue(line.matches(".*581-byte message.*: [1-9][0-9,]* a second when the bench started, [1-9][0-9,]* a second when it ended\\."), line);
  }
}
