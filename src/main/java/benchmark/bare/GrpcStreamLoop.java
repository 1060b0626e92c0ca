package benchmark.bare;

import benchmark.BenchmarkMessages;
import protocols.core.Durations;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloStreamsGrpc;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import protocols.core.HostAndPort;
import protocols.core.LatencyRecord;

/**
 * The limit a Gatling stream is compared with: grpc-java's ClientCall driven directly, closed loop, on
 * the benchmark server's HelloStreams. Each of {@code users} loops opens a stream, runs it to its end
 * and opens the next: a server stream of {@code messages} replies, or a bidi ping-pong of {@code
 * messages} requests, each sent when the echo of the one before has come (what GrpcStreamingSimulation's
 * {@code send(request).awaitMessages(1)} does). Same channels, event loops and request as the grpc
 * protocol; messages received in the measured window, per second, and the process's CPU time in that
 * window per message received in it (as Gatling's {@code cpuPerCall} shares the CPU of the seconds with
 * measured messages: the warm-up's JIT compilation counts on neither side).
 *
 * <pre>GrpcStreamLoop server|bidi host:port users connections warmup hold messages out.json</pre>
 */
public final class GrpcStreamLoop {

  private static final EventLoopGroup LOOPS = LoopLocal.eventLoops(0, "grpc-stream-bare");
  private static final ChannelFactory<? extends SocketChannel> SOCKETS = LoopLocal.SOCKETS;

  private final boolean server;
  private final int messages;
  private final List<ManagedChannel> channels = new ArrayList<>();
  private final BenchmarkMessage request = BenchmarkMessages.request();
  private final AtomicLong received = new AtomicLong();
  private final AtomicLong failedStreams = new AtomicLong();
  private volatile boolean measuring;
  private volatile boolean stopped;

  private GrpcStreamLoop(boolean server, HostAndPort target, int connections, int messages) {
    this.server = server;
    this.messages = messages;
    for (int i = 0; i < connections; i++) {
      channels.add(
          NettyChannelBuilder.forAddress(target.host(), target.port())
              .eventLoopGroup(LOOPS.next())
              .channelFactory(SOCKETS)
              .usePlaintext()
              .directExecutor()
              .build());
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 8 || !(args[0].equals("server") || args[0].equals("bidi"))) {
      System.err.println("usage: GrpcStreamLoop server|bidi host:port users connections warmup hold messages out.json");
      System.exit(2);
    }
    HostAndPort target = HostAndPort.parse(args[1], "target");
    int users = Integer.parseInt(args[2]);
    int connections = args[3].equals("per-user") ? users : Integer.parseInt(args[3]);
    Duration warmup = Durations.parse(args[4], "warmup");
    Duration hold = Durations.parse(args[5], "hold");
    int messages = Integer.parseInt(args[6]);
    GrpcStreamLoop loop = new GrpcStreamLoop(args[0].equals("server"), target, connections, messages);
    for (int user = 0; user < users; user++) {
      loop.nextStream(loop.channels.get(user % connections));
    }
    Thread.sleep(warmup.toMillis());
    long cpuStart = LatencyRecord.ProcessCpu.nanos();
    loop.measuring = true;
    long start = System.nanoTime();
    long fromMillis = System.currentTimeMillis();
    Thread.sleep(hold.toMillis());
    loop.measuring = false;
    long toMillis = System.currentTimeMillis();
    double seconds = (System.nanoTime() - start) / 1e9;
    double cpuPerMessage = (LatencyRecord.ProcessCpu.nanos() - cpuStart) / 1000.0 / Math.max(1, loop.received.get());
    loop.stopped = true;
    String json = String.format(Locale.ROOT,
        "{\"requests\": {\"Messages\": {\"throughput\": %.1f, \"count\": %d, \"ko\": %d, \"cpuPerCall\": %.2f}},"
            + " \"fromMillis\": %d, \"toMillis\": %d}%n",
        loop.received.get() / seconds, loop.received.get(), loop.failedStreams.get(), cpuPerMessage, fromMillis, toMillis);
    Files.writeString(Path.of(args[7]), json);
    System.out.print(json);
    loop.channels.forEach(ManagedChannel::shutdownNow);
    System.exit(0);
  }

  private void nextStream(ManagedChannel channel) {
    if (stopped) {
      return;
    }
    MethodDescriptor<BenchmarkMessage, BenchmarkMessage> method =
        server ? HelloStreamsGrpc.getServerStreamMethod() : HelloStreamsGrpc.getBidiStreamMethod();
    ClientCall<BenchmarkMessage, BenchmarkMessage> call =
        channel.newCall(method, CallOptions.DEFAULT.withDeadlineAfter(10, TimeUnit.SECONDS));
    call.start(
        new ClientCall.Listener<>() {
          private int sent = 1; // bidi: the first ping goes out with the stream

          @Override
          public void onMessage(BenchmarkMessage reply) {
            if (measuring && BenchmarkMessages.isOk(reply)) {
              received.incrementAndGet();
            }
            call.request(1);
            if (!server) {
              pingOrHalfClose();
            }
          }

          private void pingOrHalfClose() {
            if (sent < messages) {
              sent++;
              call.sendMessage(request);
            } else {
              call.halfClose();
            }
          }

          @Override
          public void onClose(Status status, Metadata trailers) {
            if (!status.isOk() && measuring) {
              failedStreams.incrementAndGet();
            }
            nextStream(channel);
          }
        },
        new Metadata());
    call.request(1);
    if (server) {
      call.sendMessage(request.toBuilder().setField2(messages).build());
      call.halfClose();
    } else {
      call.sendMessage(request); // the first ping; each echo sends the next
    }
  }
}
