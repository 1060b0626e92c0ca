package protocols.grpc;

import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import streaming.pb.Ask;
import streaming.pb.Item;
import streaming.pb.StreamsGrpc;

/** A real grpc-java server of the test service {@code streaming.Streams}, counting the streams it has open. */
final class StreamingServer implements AutoCloseable {

  private static final Metadata.Key<String> TENANT = Metadata.Key.of("x-tenant", Metadata.ASCII_STRING_MARSHALLER);
  private static final Context.Key<String> TENANT_IN_CONTEXT = Context.key("tenant");

  /** Streams the server has open now: begun, and neither completed, failed nor cancelled. */
  final AtomicInteger open = new AtomicInteger();
  /** Items SlowSum has received so far. */
  final AtomicInteger slowSumReceived = new AtomicInteger();

  private final Server server;
  private final ScheduledExecutorService timer = Executors.newScheduledThreadPool(2);

  private StreamingServer(int port) throws Exception {
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", port))
            .addService(ServerInterceptors.intercept(new Streams(), new TenantInterceptor()))
            .build()
            .start();
  }

  static StreamingServer start() throws Exception {
    return new StreamingServer(0);
  }

  static StreamingServer startOn(int port) throws Exception {
    return new StreamingServer(port);
  }

  int port() {
    return server.getPort();
  }

  String target() {
    return "127.0.0.1:" + port();
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    timer.shutdownNow();
  }

  /** Marks the stream open until it ends in any way. */
  private void track(StreamObserver<?> responses) {
    open.incrementAndGet();
    AtomicInteger once = new AtomicInteger();
    Runnable closed = () -> {
      if (once.getAndIncrement() == 0) {
        open.decrementAndGet();
      }
    };
    ServerCallStreamObserver<?> observer = (ServerCallStreamObserver<?>) responses;
    observer.setOnCancelHandler(closed);
    observer.setOnCloseHandler(closed);
  }

  private final class Streams extends StreamsGrpc.StreamsImplBase {

    @Override
    public void items(Ask ask, StreamObserver<Item> responses) {
      track(responses);
      String tag = ask.getTag().equals("tenant") ? String.valueOf(TENANT_IN_CONTEXT.get()) : ask.getTag();
      sendItem(ask, tag, 0, responses);
    }

    private void sendItem(Ask ask, String tag, int index, StreamObserver<Item> responses) {
      if (((ServerCallStreamObserver<?>) responses).isCancelled()) {
        return;
      }
      if (ask.getFailAfter() > 0 && index == ask.getFailAfter()) {
        responses.onError(Status.INTERNAL.withDescription("failed on purpose").asRuntimeException());
        return;
      }
      if (index == ask.getCount()) {
        responses.onCompleted();
        return;
      }
      timer.schedule(
          () -> {
            responses.onNext(Item.newBuilder().setIndex(index).setTag(tag).build());
            sendItem(ask, tag, index + 1, responses);
          },
          ask.getIntervalMillis(),
          TimeUnit.MILLISECONDS);
    }

    @Override
    public StreamObserver<Item> sum(StreamObserver<Item> responses) {
      track(responses);
      return summing(responses, null);
    }

    @Override
    public StreamObserver<Item> slowSum(StreamObserver<Item> responses) {
      track(responses);
      ServerCallStreamObserver<Item> observer = (ServerCallStreamObserver<Item>) responses;
      observer.disableAutoRequest();
      timer.schedule(() -> observer.request(Integer.MAX_VALUE), 1, TimeUnit.SECONDS);
      return summing(responses, slowSumReceived);
    }

    private StreamObserver<Item> summing(StreamObserver<Item> responses, AtomicInteger counter) {
      return new StreamObserver<>() {
        int sum;
        int count;

        @Override
        public void onNext(Item item) {
          sum += item.getIndex();
          count++;
          if (counter != null) {
            counter.incrementAndGet();
          }
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {
          responses.onNext(Item.newBuilder().setIndex(sum).setTag(String.valueOf(count)).build());
          responses.onCompleted();
        }
      };
    }

    @Override
    public StreamObserver<Item> echo(StreamObserver<Item> responses) {
      track(responses);
      return new StreamObserver<>() {
        @Override
        public void onNext(Item item) {
          responses.onNext(item);
        }

        @Override
        public void onError(Throwable t) {}

        @Override
        public void onCompleted() {
          responses.onCompleted();
        }
      };
    }
  }

  private static final class TenantInterceptor implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
        ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
      return Contexts.interceptCall(Context.current().withValue(TENANT_IN_CONTEXT, headers.get(TENANT)), call, headers, next);
    }
  }
}
