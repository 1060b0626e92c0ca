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
import java.util.function.Consumer;
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
        + jfr.toAbsolutePath() + ",settings=" + settings(jfr.getParent()));
  }

  /**
   * JFR's "profile" settings, or, with {@code -DprofilePeriod=1ms}, a copy of them written beside the
   * recording that samples Java stacks that often instead of every 10 ms: a 10 s window then holds
   * thousands of samples per event loop instead of hundreds, enough to rank a 1 % frame.
   */
  private static String settings(Path dir) {
    String period = System.getProperty("profilePeriod", "").trim();
    if (period.isEmpty()) {
      return "profile";
    }
    if (!period.matches("\\d+ ?ms")) {
      throw new IllegalArgumentException("-DprofilePeriod=" + period + ": expected milliseconds, as 1ms");
    }
    Path source = Path.of(System.getProperty("java.home"), "lib", "jfr", "profile.jfc");
    try {
      String jfc = Files.readString(source);
      String sampling = "<setting name=\"period\" control=\"method-sampling-java-interval\">";
      int at = jfc.indexOf(sampling);
      if (at < 0) {
        throw new IllegalStateException(source + " has no Java sampling period to change");
      }
      int end = jfc.indexOf("</setting>", at);
      String changed = jfc.substring(0, at + sampling.length()) + period.replace(" ", "").replace("ms", " ms") + jfc.substring(end);
      Path copy = Files.createDirectories(dir).resolve("profile-" + period.replace(" ", "") + ".jfc");
      Files.writeString(copy, changed);
      return copy.toAbsolutePath().toString();
    } catch (IOException e) {
      throw new IllegalStateException("could not write JFR settings from " + source + ": " + e.getMessage(), e);
    }
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
    int[] samples = {0};
    List<String> unread = forEachSample(jfrs, event -> {
      samples[0]++;
      List<RecordedFrame> frames = event.getStackTrace().getFrames();
      if (!frames.isEmpty()) {
        self.merge(frame(frames.get(0)), 1, Integer::sum);
      }
      frames.stream().map(Profiles::frame).filter(f -> OWN.stream().anyMatch(f::startsWith)).distinct()
          .forEach(f -> inclusive.merge(f, 1, Integer::sum));
    });
    StringBuilder md = heading(label, samples[0] + " samples of " + jfrs.size() + " recordings", unread);
    md.append("\n\nSelf (innermost frame):\n\n").append(ranked(self, samples[0], top));
    md.append("\nOurs and Gatling's, inclusive:\n\n").append(ranked(inclusive, samples[0], top));
    return md.toString();
  }

  /** A step of a call, found in a sample's stack by any of its markers (a substring of "Type.method"). */
  record Step(String name, List<String> markers) {
    Step(String name, String... markers) {
      this(name, List.of(markers));
    }

    boolean in(List<String> frames) {
      return frames.stream().anyMatch(frame -> markers.stream().anyMatch(frame::contains));
    }
  }

  /** The steps of a gRPC call that the stub-free path does differently from stubs (bench/stubfree.sh). */
  static final List<Step> GRPC_CALL_STEPS =
      List.of(
          new Step("Gatling's checks, all", "io.gatling.core.check.Check$.check"),
          new Step("reply JSON text (JsonFormat printer)", "JsonFormat$PrinterImpl.print"),
          new Step("reply JSON text parsed (Jackson readTree)", "ObjectMapper.readTree"),
          new Step("reply JSON tree (ProtoJsonTree, from the message or the bytes)", "ProtoJsonTree.of"),
          new Step("jsonPath evaluation (Gatling)", "io.gatling.core.check.jsonpath.JsonPaths", "io.gatling.jsonpath."),
          new Step("reply decoding by generated code or DynamicMessage (grpc-java's marshaller)", "ProtoLiteUtils$MessageMarshaller.parse"),
          new Step("reply kept as bytes (ReceivedMessage's marshaller)", "protocols.grpc.ReceivedMessage$1.parse"),
          new Step("reply decoded for response(...) (ReceivedMessage.decoded)", "protocols.grpc.ReceivedMessage.decoded"),
          new Step("reply decoding by reflection (DynamicMessage: MessageReflection)", "MessageReflection.mergeMessageFrom"),
          new Step("request encoding (marshaller drainTo)", "ProtoInputStream.drainTo"),
          new Step("microsecond record (LatencyRecord, HdrHistogram)", "LatencyRecord", "org.HdrHistogram"));

  /**
   * The share of the CPU samples on Gatling's threads ({@code gatling-*}) of all of {@code jfrs}
   * whose stack shows each step, as a markdown list: a sample counts once per step it shows, and steps
   * nest, so the shares do not add up.
   */
  static String steps(String label, List<Path> jfrs, List<Step> steps) {
    int[] counts = new int[steps.size()];
    int[] samples = {0};
    List<String> unread = forEachSample(jfrs, event -> {
      if (!sampledThread(event).startsWith("gatling-")) {
        return;
      }
      samples[0]++;
      List<String> frames = event.getStackTrace().getFrames().stream().map(Profiles::frame).toList();
      for (int i = 0; i < steps.size(); i++) {
        if (steps.get(i).in(frames)) {
          counts[i]++;
        }
      }
    });
    StringBuilder md = heading(label, samples[0] + " samples on Gatling's threads in " + jfrs.size() + " recordings", unread);
    md.append("\n\n");
    int total = samples[0];
    for (int i = 0; i < steps.size(); i++) {
      md.append(String.format(Locale.ROOT, "- %5.1f %% %s%n", 100.0 * counts[i] / Math.max(1, total), steps.get(i).name()));
    }
    return md.toString();
  }

  /** Feeds each counted sample of {@code jfrs} to {@code sample}; returns the recordings it could not read, and why. */
  private static List<String> forEachSample(List<Path> jfrs, Consumer<RecordedEvent> sample) {
    List<String> unread = new ArrayList<>();
    for (Path jfr : jfrs) {
      if (!Files.exists(jfr)) {
        unread.add(jfr + " (no recording)");
        continue;
      }
      try {
        for (RecordedEvent event : RecordingFile.readAllEvents(jfr)) {
          if (counted(event)) {
            sample.accept(event);
          }
        }
      } catch (IOException e) {
        unread.add(jfr + " (" + e.getMessage() + ")");
      }
    }
    return unread;
  }

  private static StringBuilder heading(String label, String what, List<String> unread) {
    StringBuilder md = new StringBuilder("### ").append(label).append(": ").append(what);
    if (!unread.isEmpty()) {
      md.append("; not read: ").append(String.join(", ", unread));
    }
    return md;
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
