package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.grpc.GrpcBenchmarkServer;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloStreamsGrpc;
import protocols.grpc.GrpcStreamBuilder;

/**
 * gRPC streams over the shared staircase, on the benchmark server's HelloStreams: each iteration of a
 * user runs a server stream of {@code -Dmessages} replies, a client stream of as many requests, and a
 * bidirectional stream echoing as many, every message checked.
 */
public class GrpcStreamingSimulation extends BenchmarkSimulation {

  /** Messages per stream: {@code -Dmessages=N}, 10 by default. */
  static int messages() {
    String value = System.getProperty("messages", "10");
    try {
      int n = Integer.parseInt(value.trim());
      if (n >= 1 && n <= 100_000) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("messages=" + value + ": expected a number of messages per stream, 1 to 100000");
  }

  public GrpcStreamingSimulation() {
    super(embedded(s -> GrpcBenchmarkServer.start("127.0.0.1", 0, s.serviceTime())));
    int messages = messages();
    BenchmarkMessage request = BenchmarkMessages.request();
    GrpcStreamBuilder<BenchmarkMessage, BenchmarkMessage> serverStream =
        grpc(Staircase.named("ServerStream"))
            .serverStream(HelloStreamsGrpc.getServerStreamMethod())
            .check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK));
    GrpcStreamBuilder<BenchmarkMessage, BenchmarkMessage> clientStream =
        grpc(Staircase.named("ClientStream"))
            .clientStream(HelloStreamsGrpc.getClientStreamMethod())
            .check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK));
    GrpcStreamBuilder<BenchmarkMessage, BenchmarkMessage> bidiStream =
        grpc(Staircase.named("BidiStream"))
            .bidiStream(HelloStreamsGrpc.getBidiStreamMethod())
            .check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK));
    benchmark(
        "gRPC HelloStreams",
        exec(serverStream.send(request.toBuilder().setField2(messages).build()), serverStream.awaitStreamEnd())
            .exec(clientStream.start())
            .repeat(messages)
            .on(exec(clientStream.send(request)))
            .exec(clientStream.halfClose(), clientStream.awaitStreamEnd())
            .exec(bidiStream.start())
            .repeat(messages)
            .on(exec(bidiStream.send(request)))
            .exec(bidiStream.halfClose(), bidiStream.awaitStreamEnd()),
        grpc.target(target.address()).connections(settings.connections()),
        // a user's last iteration runs to its end: cut, it would leave its streams open (a KO each)
        false);
  }
}
