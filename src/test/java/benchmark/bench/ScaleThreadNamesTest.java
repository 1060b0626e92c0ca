package benchmark.bench;

import static org.junit.jupiter.api.Assertions.*;

import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** The scale bench names the threads that grow with users: /proc's names, counted with digits folded. */
class ScaleThreadNamesTest {

  @Test
  void threadsAreCountedByNameWithTheirNumbersFolded() throws Exception {
    CountDownLatch end = new CountDownLatch(1);
    Thread[] started = new Thread[3];
    for (int i = 0; i < started.length; i++) {
      started[i] = new Thread(() -> {
        try {
          end.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "scale-probe-" + (i + 7));
      started[i].start();
    }
    try {
      Map<String, Integer> before = Scale.threadNames(ProcessHandle.current().pid());

      assertEquals(3, before.get("scale-probe-#"), before.toString());
      assertTrue(before.values().stream().mapToInt(Integer::intValue).sum() >= 4, before.toString());
    } finally {
      end.countDown();
      for (Thread t : started) {
        t.join();
      }
    }
  }

  @Test
  void onlyTheNamesWhoseCountChangedAreListed() {
    Scale.Row row = new Scale.Row("dubbo", 1, 100, 1, 3, 5, 10, 100, null,
        Map.of("Gatling-#", 2, "main", 1), Map.of("Gatling-#", 2, "main", 1, "DubboClientHandler-#", 2));

    assertEquals(java.util.List.of("`DubboClientHandler-#` 0 → 2"), row.threadsThatChanged());
  }
}
