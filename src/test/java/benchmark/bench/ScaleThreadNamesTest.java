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
    // the JVM gives a thread its name in the kernel as the thread begins, before its run(): wait for that
    CountDownLatch running = new CountDownLatch(3);
    Thread[] started = new Thread[3];
    for (int i = 0; i < started.length; i++) {
      started[i] = new Thread(() -> {
        running.countDown();
        try {
          end.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }, "scale-probe-" + (i + 7));
      started[i].start();
    }
    try {
      assertTrue(running.await(10, java.util.concurrent.TimeUnit.SECONDS), "the probe threads did not start");
      Map<String, Integer> names = Scale.threadNames(ProcessHandle.current().pid());

      assertEquals(3, names.get("scale-probe-#"), names.toString());
      assertTrue(names.values().stream().mapToInt(Integer::intValue).sum() >= 4, names.toString());
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
