package protocols.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import protocols.core.HostAndPort;

/**
 * A foreign server (a Go or Python program) as a process of the test: started, ready once it prints
 * {@code listening on host:port} or accepts a connection, its output kept for error messages, and
 * stopped by {@link #close()} (then forcibly if it lingers).
 */
public final class ServerProcess implements AutoCloseable {

  private static final Pattern LISTENING = Pattern.compile("listening on (\\S+)");
  private static final long READY_SECONDS = 20;

  public final Process process;
  /** Where it listens. */
  public final HostAndPort address;
  private final StringBuffer output = new StringBuffer();

  private ServerProcess(String name, List<String> command, HostAndPort known) throws Exception {
    process = new ProcessBuilder(command).redirectErrorStream(true).start();
    CompletableFuture<HostAndPort> listening = new CompletableFuture<>();
    Thread reader =
        new Thread(
            () -> {
              try (BufferedReader lines =
                  new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = lines.readLine()) != null; ) {
                  output.append(line).append('\n');
                  Matcher m = LISTENING.matcher(line);
                  if (known == null && m.find()) {
                    listening.complete(HostAndPort.parse(m.group(1), "the address " + name + " printed"));
                  }
                }
              } catch (IOException e) {
                // the process ended
              }
              listening.completeExceptionally(new AssertionError(name + " ended: " + output));
            },
            name + "-output");
    reader.setDaemon(true);
    reader.start();
    try {
      address = known == null ? listening.get(READY_SECONDS, TimeUnit.SECONDS) : awaitAccepting(known, listening);
    } catch (Exception e) {
      close();
      throw new AssertionError(name + " did not listen within " + READY_SECONDS + " s: " + output, e);
    }
  }

  /** Starts {@code command}; ready when it prints {@code listening on host:port}. */
  public static ServerProcess printingListening(String name, List<String> command) throws Exception {
    return new ServerProcess(name, command, null);
  }

  /** Starts {@code command}, which prints nothing when it listens; ready when {@code address} accepts a connection. */
  public static ServerProcess accepting(String name, List<String> command, HostAndPort address) throws Exception {
    return new ServerProcess(name, command, address);
  }

  private HostAndPort awaitAccepting(HostAndPort address, CompletableFuture<HostAndPort> ended) throws Exception {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(READY_SECONDS);
    while (!accepts(address)) {
      if (ended.isDone() || !process.isAlive() || System.nanoTime() > until) {
        throw new IllegalStateException("nothing accepts connections on " + address);
      }
      Thread.sleep(50);
    }
    return address;
  }

  private static boolean accepts(HostAndPort address) {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(address.host(), address.port()), 200);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** What it printed so far. */
  public String output() {
    return output.toString();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(5, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
    }
  }
}
