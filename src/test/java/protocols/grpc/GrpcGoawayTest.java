package protocols.grpc;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.grpc.GrpcDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloGrpc;
import io.grpc.Attributes;
import io.grpc.Server;
import io.grpc.ServerTransportFilter;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import protocols.core.ProbeSimulation;
import protocols.testkit.GatlingRun;

/**
 * A real grpc-java server that ends its connections on its own with a GOAWAY, as servers behind a
 * {@code MAX_CONNECTION_AGE} do: the protocol shuts such a channel down gracefully and replaces it, so
 * the calls in flight on it must still end as the server answers them, and the next calls go on the
 * replacement.
 */
class GrpcGoawayTest {

  @Test
  void aServerThatAgesOutItsConnectionsEveryHalfSecondLosesNoCall() throws Exception {
    AtomicInteger connections = new AtomicInteger();
    // each reply 20 ms after its request, from another thread: at every GOAWAY some calls are in flight
    ScheduledExecutorService replies = Executors.newSingleThreadScheduledExecutor();
    Server server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0))
            .maxConnectionAge(500, TimeUnit.MILLISECONDS)
            .maxConnectionAgeGrace(5, TimeUnit.SECONDS)
            .addTransportFilter(
                new ServerTransportFilter() {
                  @Override
                  public Attributes transportReady(Attributes attributes) {
                    connections.incrementAndGet();
                    return attributes;
                  }
                })
            .addService(
                new HelloGrpc.HelloImplBase() {
                  @Override
                  public void say(BenchmarkMessage request, StreamObserver<BenchmarkMessage> responses) {
                    replies.schedule(
                        () -> {
                          responses.onNext(BenchmarkMessages.reply(request));
                          responses.onCompleted();
                        },
                        20,
                        TimeUnit.MILLISECONDS);
                  }
                })
            .build()
            .start();
    try {
      ProbeSimulation.define(
          sim ->
              sim.setUp(
                      scenario("aged connections")
                          .during(Duration.ofSeconds(5))
                          .on(exec(grpc("say").unary(HelloGrpc.getSayMethod()).payload(BenchmarkMessages.request())
                              .check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK))))
                          .injectOpen(atOnceUsers(20)))
                  .protocols(grpc.target("127.0.0.1:" + server.getPort()).sharedChannels(2)));

      GatlingRun run = GatlingRun.run(ProbeSimulation.class, Map.of());

      assertEquals(0, run.ko("say"), "every call ends OK across the GOAWAYs: " + run.errors("say"));
      assertTrue(run.ok("say") > 1000, "the users kept calling: " + run.ok("say") + " OK");
      assertTrue(connections.get() >= 10, "the server aged the channels out and they were replaced: " + connections.get() + " connections");
    } finally {
      server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
      replies.shutdownNow();
    }
  }
}
