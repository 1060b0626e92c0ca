package benchmark.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A child process's CPU time, user and system apart, and its context switches, sampled from /proc while
 * it lives, so that any window of its life (a run's measured seconds) can be read afterwards. The split
 * says what a CPU-per-call figure alone cannot: system time and voluntary switches per call are the
 * kernel's share and the wake-ups, which fall when an event loop handles several calls per wake-up.
 * Empty where there is no /proc (not Linux).
 */
final class ProcessMeter implements AutoCloseable {

  /** Clock ticks per second of /proc/<pid>/stat's times: USER_HZ, 100 on every Linux this runs on. */
  private static final double TICKS_PER_SECOND = 100;
  private static final long PERIOD_MILLIS = 250;

  record Sample(long millis, long userTicks, long systemTicks, long voluntary, long involuntary) {}

  /** What the process spent between two samples, scaled to the window asked for. */
  record Usage(double userMicros, double systemMicros, double voluntarySwitches, double involuntarySwitches) {
    Usage perCall(long calls) {
      return calls <= 0 ? null
          : new Usage(userMicros / calls, systemMicros / calls, voluntarySwitches / calls, involuntarySwitches / calls);
    }
  }

  private final long pid;
  private final List<Sample> samples = new ArrayList<>();
  private final Thread sampler;

  private ProcessMeter(long pid) {
    this.pid = pid;
    this.sampler = new Thread(this::sampleUntilGone, "process-meter-" + pid);
    sampler.setDaemon(true);
  }

  /** Starts sampling {@code process} until it ends or the meter is closed. */
  static ProcessMeter watch(Process process) {
    ProcessMeter meter = new ProcessMeter(process.pid());
    meter.sampler.start();
    return meter;
  }

  private void sampleUntilGone() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        Sample s = sample(pid);
        if (s == null) {
          return; // the process is gone
        }
        synchronized (samples) {
          samples.add(s);
        }
        Thread.sleep(PERIOD_MILLIS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** One reading of /proc, or null when the process is gone. Threads that ended take their switches with them. */
  static Sample sample(long pid) {
    Path proc = Paths.get("/proc", String.valueOf(pid));
    try {
      String stat = Files.readString(proc.resolve("stat"));
      // the command name, field 2, may hold spaces: count fields from after its closing parenthesis
      String[] f = stat.substring(stat.lastIndexOf(')') + 2).trim().split(" ");
      long user = Long.parseLong(f[11]); // field 14, utime
      long system = Long.parseLong(f[12]); // field 15, stime
      long voluntary = 0, involuntary = 0;
      try (Stream<Path> tasks = Files.list(proc.resolve("task"))) {
        for (Path task : (Iterable<Path>) tasks::iterator) {
          try {
            for (String line : Files.readAllLines(task.resolve("status"))) {
              if (line.startsWith("voluntary_ctxt_switches:")) {
                voluntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
              } else if (line.startsWith("nonvoluntary_ctxt_switches:")) {
                involuntary += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
              }
            }
          } catch (IOException threadEnded) {
            // a thread that ended between the listing and the read
          }
        }
      }
      return new Sample(System.currentTimeMillis(), user, system, voluntary, involuntary);
    } catch (IOException | RuntimeException gone) {
      return null;
    }
  }

  /**
   * The usage in [{@code fromMillis}, {@code toMillis}], from the first sample at or after its start to
   * the last at or before its end, scaled to the window's length; null when fewer than two samples fall in it.
   */
  Usage between(long fromMillis, long toMillis) {
    Sample first = null, last = null;
    synchronized (samples) {
      for (Sample s : samples) {
        if (s.millis() >= fromMillis && s.millis() <= toMillis) {
          if (first == null) {
            first = s;
          }
          last = s;
        }
      }
    }
    if (first == null || last == first || last.millis() == first.millis()) {
      return null;
    }
    double scale = (double) (toMillis - fromMillis) / (last.millis() - first.millis());
    double microsPerTick = 1e6 / TICKS_PER_SECOND;
    return new Usage((last.userTicks() - first.userTicks()) * microsPerTick * scale,
        (last.systemTicks() - first.systemTicks()) * microsPerTick * scale,
        (last.voluntary() - first.voluntary()) * scale, (last.involuntary() - first.involuntary()) * scale);
  }

  @Override
  public void close() {
    sampler.interrupt();
  }
}
