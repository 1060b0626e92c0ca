package benchmark.grpc;

import benchmark.BenchmarkMessages;
import benchmark.BenchmarkServer;
import protocols.core.Durations;
import benchmark.ServerArgs;
import benchmark.ServiceTime;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloGrpc;
import benchmark.pb.grpctesting.BenchmarkServiceGrpc;
import benchmark.pb.grpctesting.SimpleRequest;
import benchmark.pb.grpctesting.SimpleResponse;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.ProtoReflectionService;
import io.grpc.protobuf.services.ProtoReflectionServiceV1;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The seed's gRPC benchmark server: {@code Hello/Say} answers with field1 "OK" and field2 100, after an
 * optional service time. It also answers {@code grpc.testing.BenchmarkService/UnaryCall}, the call of
 * grpc-java's own benchmark client, so that this client and Gatling can be compared on one server
 * (bench/peers.sh): a reply body of the requested size ({@link UnaryCallMessages}), after the same
 * service time. And {@code HelloStreams} ({@link StreamingService}): server, client and bidirectional
 * streams of the benchmark message.
 *
 * <p>As its own process: {@code mvn -q compile exec:java -Dexec.mainClass=benchmark.grpc.GrpcBenchmarkServer
 * -Dexec.args="--port 50051 --service-time 0 [--reflection]"}, or embedded by {@link #start}.
 */
public final class GrpcBenchmarkServer implements BenchmarkServer {

  private final Server server;

  private GrpcBenchmarkServer(Server server) {
    this.server = server;
  }

  /** Starts on {@code host:port}; port 0 picks a free one. */
  public static GrpcBenchmarkServer start(String host, int port, Duration serviceTime)
      throws IOException {
    return start(host, port, serviceTime, false);
  }

  /** As {@link #start(String, int, Duration)}; {@code reflection} adds grpc's reflection service (v1 and v1alpha). */
  public static GrpcBenchmarkServer start(String host, int port, Duration serviceTime, boolean reflection)
      throws IOException {
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(new InetSocketAddress(host, port))
            .addService(new HelloService(serviceTime))
            .addService(new UnaryCallService(serviceTime))
            .addService(new StreamingService(serviceTime))
            .directExecutor(); // Say does no blocking work; the service time runs on a timer
    if (reflection) {
      builder.addService(ProtoReflectionServiceV1.newInstance()).addService(ProtoReflectionService.newInstance());
    }
    return new GrpcBenchmarkServer(builder.build().start());
  }

  public int port() {
    return server.getPort();
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  /** Answers a unary call once the service time has passed, without holding a thread meanwhile. */
  private static <T> void replyAfter(Duration serviceTime, StreamObserver<T> responses, T reply) {
    ServiceTime.after(
        serviceTime,
        () -> {
          responses.onNext(reply);
          responses.onCompleted();
        });
  }

  static final class HelloService extends HelloGrpc.HelloImplBase {
    private final Duration serviceTime;

    HelloService(Duration serviceTime) {
      this.serviceTime = serviceTime;
    }

    @Override
    public void say(BenchmarkMessage request, StreamObserver<BenchmarkMessage> responses) {
      BenchmarkMessage reply = BenchmarkMessages.reply(request);
      replyAfter(serviceTime, responses, reply);
    }
  }

  static final class UnaryCallService extends BenchmarkServiceGrpc.BenchmarkServiceImplBase {
    private final Duration serviceTime;

    UnaryCallService(Duration serviceTime) {
      this.serviceTime = serviceTime;
    }

    @Override
    public void unaryCall(SimpleRequest request, StreamObserver<SimpleResponse> responses) {
      SimpleResponse reply;
      try {
        reply = UnaryCallMessages.reply(request);
      } catch (IllegalArgumentException e) {
        responses.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
        return;
      }
      replyAfter(serviceTime, responses, reply);
    }
  }

  public static void main(String[] args) throws Exception {
    // --reflection (no value) serves grpc's reflection, for calls made without stubs
    List<String> rest = new ArrayList<>(List.of(args));
    boolean reflection = rest.remove("--reflection");
    ServerArgs options = ServerArgs.parseOrExit(rest.toArray(String[]::new), 50051);
    GrpcBenchmarkServer server = start(options.host(), options.port(), options.serviceTime(), reflection);
    BenchmarkServer.serveUntilStopped(
        server,
        "gRPC benchmark server listening on "
            + options.host()
            + ":"
            + server.port()
            + (reflection ? " with reflection" : "")
            + " (service time "
            + Durations.format(options.serviceTime())
            + ")");
  }
}
