package benchmark.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordingFile;

/**
 * {@code -Dprofile=true}: a JDK Flight Recorder CPU profile of each measured process, summed up as where the samples fall: each sample goes to the innermost frame that is not the
 * JDK's (a {@code HashMap.get} called by Gatling counts as Gatling). A share, not a time: multiply by the
 * process's CPU per call to get µs per call. Threads named main or JFR… (start-up, the recorder) are left out.
 */
final class Profiles {

  /** Innermost non-JDK frame's package prefix → what it is, first match wins. */
  private static final Map<String, String> CATEGORIES = new LinkedHashMap<>();

  static {
    CATEGORIES.put("io.grpc.", "grpc-java");
    CATEGORIES.put("io.netty.", "Netty");
    CATEGORIES.put("com.google.protobuf.", "protobuf");
    CATEGORIES.put("protocols.core.", "bridge (protocols.core)");
    CATEGORIES.put("protocols.", "protocol adapter and client (protocols.*)");
    CATEGORIES.put("io.gatling.", "Gatling and Scala");
    CATEGORIES.put("scala.", "Gatling and Scala");
    CATEGORIES.put("com.weibo.", "Motan");
    CATEGORIES.put("org.apache.thrift.", "libthrift");
    CATEGORIES.put("org.apache.dubbo.", "Dubbo");
    CATEGORIES.put("org.HdrHistogram.", "HdrHistogram");
    CATEGORIES.put("benchmark.", "benchmark loop and messages");
    CATEGORIES.put("simulations.", "benchmark loop and messages");
  }

  private Profiles() {}

  static boolean enabled() {
    return Boolean.parseBoolean(System.getProperty("profile", "false"));
  }

  /**
   * The JVM options that record {@code jfr} from the warm-up's length after the start to the exit (a
   * Gatling JVM takes seconds to start its simulation, longer on a busy machine: a fixed window could
   * miss the calls; what it does after them is on its main thread, left out), or none without -Dprofile.
   */
  static List<String> jvmOptions(Path jfr, Duration warmup) {
    if (!enabled()) {
      return List.of();
    }
    return List.of("-XX:StartFlightRecording=delay=" + Math.max(1, warmup.toSeconds()) + "s,dumponexit=true,filename="
        + jfr.toAbsolutePath() + ",settings=profile");
  }

  /** One markdown line: the shares of the CPU samples of {@code jfr} by category, and by thread group; or why there are none. */
  static String summary(String label, Path jfr) {
    if (!Files.exists(jfr)) {
      return "- " + label + ": no recording (" + jfr + ")";
    }
    Map<String, Integer> byCategory = new TreeMap<>();
    Map<String, Integer> byThread = new TreeMap<>();
    int samples = 0;
    try {
      for (RecordedEvent event : RecordingFile.readAllEvents(jfr)) {
        if (!counted(event)) {
          continue;
        }
        String thread = sampledThread(event);
        samples++;
        byThread.merge(thread.replaceAll("\\d+", "N"), 1, Integer::sum);
        byCategory.merge(category(event.getStackTrace().getFrames()), 1, Integer::sum);
      }
    } catch (IOException e) {
      return "- " + label + ": " + jfr + " could not be read: " + e.getMessage();
    }
    return "- " + label + " (" + samples + " samples): " + shares(byCategory, samples) + "; threads: " + shares(byThread, samples);
  }

  /** Frames counted inclusively in {@link #hotFrames}: ours and Gatling's (the JDK's, Netty's and grpc-java's are everywhere). */
  private static final List<String> OWN = List.of("protocols.", "benchmark.", "simulations.", "io.gatling.");

  /**
   * The {@code top} hottest frames of the CPU samples of all of {@code jfrs} together (one side's runs:
   * more samples rank small costs better), as two markdown lists: by self time (the innermost frame,
   * the JDK's included), and ours and Gatling's by inclusive time (the frame anywhere in the stack, once
   * per sample). Threads left out as in {@link #summary}.
   */
  static String hotFrames(String label, List<Path> jfrs, int top) {
    Map<String, Integer> self = new TreeMap<>();
    Map<String, Integer> inclusive = new TreeMap<>();
    int samples = 0;
    List<String> unread = new ArrayList<>();
    for (Path jfr : jfrs) {
      if (!Files.exists(jfr)) {
        unread.add(jfr + " (no recording)");
        continue;
      }
      try {
        for (RecordedEvent event : RecordingFile.readAllEvents(jfr)) {
          if (!counted(event)) {
            continue;
          }
          samples++;
          List<RecordedFrame> frames = event.getStackTrace().getFrames();
          if (!frames.isEmpty()) {
            self.merge(frame(frames.get(0)), 1, Integer::sum);
          }
          frames.stream().map(Profiles::frame).filter(f -> OWN.stream().anyMatch(f::startsWith)).distinct()
              .forEach(f -> inclusive.merge(f, 1, Integer::sum));
        }
      } catch (IOException e) {
        unread.add(jfr + " (" + e.getMessage() + ")");
      }
    }
    StringBuilder md = new StringBuilder();
    md.append("### ").append(label).append(": ").append(samples).append(" samples of ").append(jfrs.size()).append(" recordings");
    if (!unread.isEmpty()) {
      md.append("; not read: ").append(String.join(", ", unread));
    }
    md.append("\n\nSelf (innermost frame):\n\n").append(ranked(self, samples, top));
    md.append("\nOurs and Gatling's, inclusive:\n\n").append(ranked(inclusive, samples, top));
    return md.toString();
  }

  private static boolean counted(RecordedEvent event) {
    if (!event.getEventType().getName().equals("jdk.ExecutionSample") || event.getStackTrace() == null) {
      return false;
    }
    String thread = sampledThread(event);
    return !thread.equals("main") && !thread.startsWith("JFR");
  }

  private static String sampledThread(RecordedEvent event) {
    return event.getThread("sampledThread") == null ? "?" : String.valueOf(event.getThread("sampledThread").getJavaName());
  }

  private static String frame(RecordedFrame frame) {
    return frame.getMethod().getType().getName() + "." + frame.getMethod().getName();
  }

  private static String ranked(Map<String, Integer> counts, int total, int top) {
    return counts.entrySet().stream()
        .sorted((a, b) -> b.getValue() - a.getValue())
        .limit(top)
        .map(e -> String.format(Locale.ROOT, "- %5.1f %% `%s`%n", 100.0 * e.getValue() / Math.max(1, total), e.getKey()))
        .collect(Collectors.joining());
  }

  private static String category(List<RecordedFrame> frames) {
    for (RecordedFrame frame : frames) {
      String type = frame.getMethod().getType().getName();
      for (Map.Entry<String, String> c : CATEGORIES.entrySet()) {
        if (type.startsWith(c.getKey())) {
          return c.getValue();
        }
      }
    }
    return "JDK only";
  }

  private static String shares(Map<String, Integer> counts, int total) {
    List<Map.Entry<String, Integer>> sorted = new ArrayList<>(counts.entrySet());
    sorted.sort((a, b) -> b.getValue() - a.getValue());
    return sorted.stream()
        .map(e -> String.format(Locale.ROOT, "%s %.1f %%", e.getKey(), 100.0 * e.getValue() / Math.max(1, total)))
        .collect(Collectors.joining(", "));
  }
}
