package benchmark;

import protocols.core.Durations;
import java.time.Duration;

/**
 * Command-line options shared by every benchmark server's main:
 * {@code [--host 127.0.0.1] [--port N] [--service-time 0|10ms|1s] [--stall 1s/10s]}.
 */
public record ServerArgs(String host, int port, Duration serviceTime, Stall stall) {

  /**
   * For a server's main: a bad option ends the process with one line naming it; a {@code --stall}
   * starts now (it holds the replies of every benchmark server of the process).
   */
  public static ServerArgs parseOrExit(String[] args, int defaultPort) {
    try {
      ServerArgs options = parse(args, defaultPort);
      ServiceTime.stall(options.stall());
      if (!options.stall().none()) {
        System.out.println("stalling: every " + Durations.format(options.stall().every())
            + ", replies wait " + Durations.format(options.stall().pause()));
      }
      return options;
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
    Stall stall = Stall.NONE;
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
        case "--stall" -> stall = Stall.parse(value, "--stall");
        default -> throw new IllegalArgumentException(
            option + ": unknown option; expected --host, --port, --service-time or --stall");
      }
    }
    return new ServerArgs(host, port, serviceTime, stall);
  }
}
