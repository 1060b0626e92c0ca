package example;

import com.example.greeter.GreeterGrpc;
import com.example.greeter.HelloReply;
import com.example.greeter.HelloRequest;
import io.grpc.Server;
import io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/** The service under test, in-process, so that the example runs on its own; a real project targets its own. */
final class GreeterServer implements AutoCloseable {

  private final Server server;

  private GreeterServer(Server server) {
    this.server = server;
  }

  static GreeterServer start() {
    try {
      return new GreeterServer(
          NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(new Greeter()).build().start());
    } catch (IOException e) {
      throw new IllegalStateException("the greeter server did not start: " + e.getMessage(), e);
    }
  }

  String target() {
    return "127.0.0.1:" + server.getPort();
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
  }

  private static final class Greeter extends GreeterGrpc.GreeterImplBase {
    @Override
    public void sayHello(HelloRequest request, StreamObserver<HelloReply> replies) {
      replies.onNext(HelloReply.newBuilder().setMessage("Hello " + request.getName()).build());
      replies.onCompleted();
    }
  }
}
