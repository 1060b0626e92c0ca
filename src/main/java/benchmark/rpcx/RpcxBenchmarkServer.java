package benchmark.rpcx;

import benchmark.BenchmarkMessages;
import benchmark.BenchmarkServer;
import protocols.core.Durations;
import benchmark.ServerArgs;
import benchmark.ServiceTime;
import benchmark.pb.BenchmarkMessage;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import protocols.rpcx.codec.RpcxMessage;
import protocols.rpcx.codec.SerializeType;
import protocols.rpcx.server.RpcxServer;

/**
 * The seed's rpcx benchmark server in Java, on this project's rpcx codec: service {@code Hello}, method
 * {@code Say} (protobuf) answers with field1 "OK" and field2 100, after an optional service time.
 * Unknown services and methods get rpcx's own error replies; heartbeats are echoed.
 *
 * <p>As its own process: {@code mvn -q compile exec:java -Dexec.mainClass=benchmark.rpcx.RpcxBenchmarkServer
 * -Dexec.args="--port 8972 --service-time 0"}, or embedded by {@link #start}.
 */
public final class RpcxBenchmarkServer implements BenchmarkServer {

  public static final int DEFAULT_PORT = 8972;

  private final RpcxServer server;

  private RpcxBenchmarkServer(RpcxServer server) {
    this.server = server;
  }

  /** Starts on {@code host:port}; port 0 picks a free one. */
  public static RpcxBenchmarkServer start(String host, int port, Duration serviceTime)
      throws InterruptedException {
    return new RpcxBenchmarkServer(
        RpcxServer.builder().register("Hello", "Say", request -> say(request, serviceTime)).start(host, port));
  }

  static CompletableFuture<byte[]> say(RpcxMessage request, Duration serviceTime) throws Exception {
    if (request.serializeType() != SerializeType.PROTOBUF) {
      throw new IllegalArgumentException(
          "Hello.Say takes a protobuf BenchmarkMessage (serialize type 2), got serialize type "
              + request.serializeType().code()
              + " ("
              + request.serializeType()
              + ")");
    }
    byte[] reply = BenchmarkMessages.reply(BenchmarkMessage.parseFrom(request.payloadBuffer())).toByteArray();
    if (ServiceTime.immediate(serviceTime)) {
      return CompletableFuture.completedFuture(reply);
    }
    CompletableFuture<byte[]> later = new CompletableFuture<>();
    ServiceTime.after(serviceTime, () -> later.complete(reply));
    return later;
  }

  @Override
  public int port() {
    return server.port();
  }

  /** Connections closed because their client sent a malformed frame. */
  public long malformedFrames() {
    return server.malformedFrames();
  }

  @Override
  public void close() {
    server.close();
  }

  public static void main(String[] args) throws Exception {
    ServerArgs options = ServerArgs.parseOrExit(args, DEFAULT_PORT);
    RpcxBenchmarkServer server = start(options.host(), options.port(), options.serviceTime());
    BenchmarkServer.serveUntilStopped(
        server,
        "rpcx benchmark server listening on "
            + options.host()
            + ":"
            + server.port()
            + " (Hello.Say, protobuf, service time "
            + Durations.format(options.serviceTime())
            + ")");
  }
}
