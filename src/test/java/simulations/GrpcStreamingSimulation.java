package simulations;

import static io.gatling.javaapi.core.CoreDsl.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.grpc.GrpcBenchmarkServer;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloStreamsGrpc;
import io.gatling.javaapi.core.ChainBuilder;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import protocols.core.MessageResponseTimePolicy;
import protocols.grpc.GrpcStreamBuilder;

/**
 * gRPC streams over the shared staircase, on the benchmark server's HelloStreams: each iteration of a
 * user runs a server stream of {@code -Dmessages} replies, a client stream of as many requests, and a
 * bidirectional ping-pong of as many (each message sent once the echo of the one before has come:
 * {@code send(request).awaitMessages(1)}, one action per message), every message checked. {@code -Dstreams=ServerStream,BidiStream}
 * runs only those kinds (bench/streaming.sh measures them one at a time). Each stream has a fixed
 * {@code streamName}: by default it would be the request name, which here carries the staircase's
 * phase in EL, resolved again at every action on the stream.
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

  static final List<String> KINDS = List.of("ServerStream", "ClientStream", "BidiStream");

  /** The kinds of stream each iteration runs: {@code -Dstreams}, all three by default. */
  static Set<String> kinds() {
    String value = System.getProperty("streams", String.join(",", KINDS));
    Set<String> kinds = new LinkedHashSet<>();
    for (String kind : value.split(",")) {
      if (!KINDS.contains(kind.trim())) {
        throw new IllegalArgumentException("streams=" + value + ": expected some of " + String.join(",", KINDS));
      }
      kinds.add(kind.trim());
    }
    return kinds;
  }

  public GrpcStreamingSimulation() {
    super(embedded(s -> GrpcBenchmarkServer.start("127.0.0.1", 0, s.serviceTime())));
    int messages = messages();
    Set<String> kinds = kinds();
    BenchmarkMessage request = BenchmarkMessages.request();
    GrpcStreamBuilder<BenchmarkMessage, BenchmarkMessage> serverStream =
        grpc(Staircase.named("ServerStream"))
            .serverStream(HelloStreamsGrpc.getServerStreamMethod())
            .streamName("ServerStream")
            .check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK));
    GrpcStreamBuilder<BenchmarkMessage, BenchmarkMessage> clientStream =
        grpc(Staircase.named("ClientStream"))
            .clientStream(HelloStreamsGrpc.getClientStreamMethod())
            .streamName("ClientStream")
            .check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK));
    GrpcStreamBuilder<BenchmarkMessage, BenchmarkMessage> bidiStream =
        grpc(Staircase.named("BidiStream"))
            .bidiStream(HelloStreamsGrpc.getBidiStreamMethod())
            .streamName("BidiStream")
            // a ping-pong: each echo timed from its own ping
            .messageResponseTimePolicy(MessageResponseTimePolicy.FromLastMessageSent)
            .check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK));
    ChainBuilder iteration = exec(session -> session);
    if (kinds.contains("ServerStream")) {
      iteration =
          iteration.exec(serverStream.send(request.toBuilder().setField2(messages).build()), serverStream.awaitStreamEnd());
    }
    if (kinds.contains("ClientStream")) {
      iteration =
          iteration
              .exec(clientStream.start())
              .repeat(messages)
              .on(exec(clientStream.send(request)))
              .exec(clientStream.halfClose(), clientStream.awaitStreamEnd());
    }
    if (kinds.contains("BidiStream")) {
      iteration =
          iteration
              .exec(bidiStream.start())
              .repeat(messages)
              .on(exec(bidiStream.send(request).awaitMessages(1)))
              .exec(bidiStream.halfClose(), bidiStream.awaitStreamEnd());
    }
    benchmark(
        "gRPC HelloStreams",
        iteration,
        grpc.target(target.address()).connections(settings.connections()));
  }
}
