package benchmark;

import java.time.Duration;

/**
 * Command-line options shared by every benchmark server's main:
 * {@code [--host 127.0.0.1] [--port N] [--service-time 0|10ms|1s]}.
 */
public record ServerArgs(String host, int port, Duration serviceTime) {

  /** For a server's main: a bad option ends the process with one line naming it. */
  public static ServerArgs parseOrExit(String[] args, int defaultPort) {
    try {
      return parse(args, defaultPort);
    } catch (IllegalArgumentException e) {
      System.err.println("Invalid option " + e.getMessage());
      System.exit(2);
      return null;
    }
  }

  public static ServerArgs parse(String[] args, int defaultPort) {
    String host = "127.0.0.1";
    int port = defaultPort;
    Duration serviceTime = Duration.ZERO;
    for (int i = 0; i < args.length; i++) {
      String option = args[i];
      if (i + 1 >= args.length) {
        throw new IllegalArgumentException(option + ": expected a value after it");
      }
      String value = args[++i];
      switch (option) {
        case "--host" -> host = value;
        case "--port" -> {
          try {
            port = Integer.parseInt(value);
          } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--port " + value + ": expected a port number 0-65535");
          }
        }
        case "--service-time" -> serviceTime = Durations.parse(value, "--service-time");
        default -> throw new IllegalArgumentException(
            option + ": unknown option; expected --host, --port or --service-time");
      }
    }
    return new ServerArgs(host, port, serviceTime);
  }
}
