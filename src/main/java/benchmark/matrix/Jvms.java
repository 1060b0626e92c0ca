package benchmark.matrix;

import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import protocols.core.HostAndPort;

/**
 * Starting the JVMs of a benchmark: servers, Gatling runs and bare loops, each in a process of its own
 * with this JVM's classpath, output to a log file.
 */
public final class Jvms {

  private final String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
  private final String classpath;
  /** Every process started, with its main class: a measurement may watch its server's. */
  private final List<Map.Entry<String, Process>> started = new CopyOnWriteArrayList<>();

  public Jvms() throws URISyntaxException {
    this.classpath = resolveClasspath();
  }

  public String classpath() {
    return classpath;
  }

  /** {@code java -cp <classpath> <jvmOptions> <mainClass> <args>}, output to {@code log}. */
  public Process start(List<String> jvmOptions, String mainClass, List<String> args, Path log) throws IOException {
    return start(classpath, jvmOptions, mainClass, args, log);
  }

  /** The same with another classpath: a program kept off this project's (a peer's client, say). */
  public Process start(String classpath, List<String> jvmOptions, String mainClass, List<String> args, Path log)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(java);
    command.addAll(List.of("-cp", classpath));
    command.addAll(jvmOptions);
    command.add(mainClass);
    command.addAll(args);
    Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    started.add(Map.entry(mainClass, process));
    return process;
  }

  /** The newest live process started with {@code mainClass}, if any. */
  public Optional<Process> running(String mainClass) {
    for (int i = started.size() - 1; i >= 0; i--) {
      if (started.get(i).getKey().equals(mainClass) && started.get(i).getValue().isAlive()) {
        return Optional.of(started.get(i).getValue());
      }
    }
    return Optional.empty();
  }

  /** A Gatling run of {@code simulationClass} with these system properties, results into {@code resultsFolder}. */
  public Process startGatling(String heap, List<String> properties, String simulationClass, Path resultsFolder, Path log)
      throws IOException {
    List<String> options = new ArrayList<>(List.of("-Xmx" + heap, "--add-opens=java.base/java.lang=ALL-UNNAMED"));
    options.addAll(properties);
    return start(options, "io.gatling.app.Gatling",
        List.of("--simulation", simulationClass, "--results-folder", resultsFolder.toAbsolutePath().toString()), log);
  }

  /** Waits for the process to end; kills it past {@code limit}. Returns false when it had to be killed. */
  public static boolean await(Process process, Duration limit) throws InterruptedException {
    if (process.waitFor(limit.toSeconds(), TimeUnit.SECONDS)) {
      return true;
    }
    process.destroyForcibly().waitFor();
    return false;
  }

  /** Stops a server: politely, then not. */
  public static void stop(Process process) throws InterruptedException {
    if (process == null) {
      return;
    }
    process.destroy();
    if (!process.waitFor(10, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor();
    }
  }

  /** Null once something accepts connections at {@code target}, or why it never did. */
  public static String awaitListening(Process server, HostAndPort target, Duration limit) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (System.nanoTime() < deadline) {
      if (!server.isAlive()) {
        return "it exited with code " + server.exitValue();
      }
      try (Socket socket = new Socket()) {
        socket.connect(new InetSocketAddress(target.host(), target.port()), 500);
        return null;
      } catch (IOException notYet) {
        Thread.sleep(200);
      }
    }
    return "nothing listened on " + target + " after " + limit.toSeconds() + " s";
  }

  /** " (last output: a | b | c)" from the end of a log, for failure reasons. */
  public static String tail(Path log) {
    try {
      List<String> lines = Files.readAllLines(log);
      String last =
          lines.stream()
              .skip(Math.max(0, lines.size() - 5))
              .map(String::strip)
              .filter(l -> !l.isEmpty())
              .collect(Collectors.joining(" | "));
      return last.isEmpty() ? "" : " (last output: " + last + ")";
    } catch (IOException e) {
      return "";
    }
  }

  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  /** The classpath for the child JVMs: exec:java's class loader, or this JVM's own. */
  private static String resolveClasspath() throws URISyntaxException {
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    if (loader instanceof URLClassLoader urls && urls.getURLs().length > 0) {
      List<String> entries = new ArrayList<>();
      for (URL url : urls.getURLs()) {
        entries.add(new File(url.toURI()).getPath());
      }
      return String.join(File.pathSeparator, entries);
    }
    return System.getProperty("java.class.path");
  }
}
