package benchmark.grpc;

import benchmark.BenchmarkMessages;
import benchmark.ServiceTime;
import benchmark.pb.BenchmarkMessage;
import benchmark.pb.HelloStreamsGrpc;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Duration;

/** {@code HelloStreams}: the benchmark's streaming methods, with the same service time as Say. */
final class StreamingService extends HelloStreamsGrpc.HelloStreamsImplBase {

  static final int MAX_REPLIES = 1_000_000;

  private final Duration serviceTime;

  StreamingService(Duration serviceTime) {
    this.serviceTime = serviceTime;
  }

  @Override
  public void serverStream(BenchmarkMessage request, StreamObserver<BenchmarkMessage> responses) {
    int count = request.getField2();
    if (count < 0 || count > MAX_REPLIES) {
      responses.onError(
          Status.INVALID_ARGUMENT
              .withDescription("ServerStream: field2 is the number of replies, 0 to " + MAX_REPLIES + ", got " + count)
              .asRuntimeException());
      return;
    }
    new Replies((ServerCallStreamObserver<BenchmarkMessage>) responses, BenchmarkMessages.reply(request), count).start();
  }

  /** Sends the replies of a server stream as fast as the client reads them (or one per service time). */
  private final class Replies implements Runnable {
    private final ServerCallStreamObserver<BenchmarkMessage> responses;
    private final BenchmarkMessage reply;
    private int left;
    private boolean done;

    Replies(ServerCallStreamObserver<BenchmarkMessage> responses, BenchmarkMessage reply, int count) {
      this.responses = responses;
      this.reply = reply;
      this.left = count;
    }

    void start() {
      if (serviceTime.isZero()) {
        responses.setOnReadyHandler(this);
        run();
      } else {
        ServiceTime.after(serviceTime, this::nextAfterServiceTime);
      }
    }

    /** Without a service time: send while the transport takes more, go on when it does again. */
    @Override
    public synchronized void run() {
      while (!done && left > 0 && responses.isReady() && !responses.isCancelled()) {
        left--;
        responses.onNext(reply);
      }
      if (!done && left == 0) {
        done = true;
        responses.onCompleted();
      }
    }

    private void nextAfterServiceTime() {
      if (responses.isCancelled()) {
        return;
      }
      if (left == 0) {
        responses.onCompleted();
        return;
      }
      left--;
      responses.onNext(reply);
      ServiceTime.after(serviceTime, this::nextAfterServiceTime);
    }
  }

  @Override
  public StreamObserver<BenchmarkMessage> clientStream(StreamObserver<BenchmarkMessage> responses) {
    return new StreamObserver<>() {
      private BenchmarkMessage last;

      @Override
      public void onNext(BenchmarkMessage request) {
        last = request;
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        if (last == null) {
          responses.onError(Status.INVALID_ARGUMENT.withDescription("ClientStream: no request").asRuntimeException());
          return;
        }
        BenchmarkMessage reply = BenchmarkMessages.reply(last);
        ServiceTime.after(
            serviceTime,
            () -> {
              responses.onNext(reply);
              responses.onCompleted();
            });
      }
    };
  }

  @Override
  public StreamObserver<BenchmarkMessage> bidiStream(StreamObserver<BenchmarkMessage> responses) {
    return new StreamObserver<>() {
      @Override
      public void onNext(BenchmarkMessage request) {
        BenchmarkMessage reply = BenchmarkMessages.reply(request);
        // one timer thread, one delay: replies and the completion keep their order
        ServiceTime.after(serviceTime, () -> send(reply));
      }

      @Override
      public void onError(Throwable t) {}

      @Override
      public void onCompleted() {
        ServiceTime.after(serviceTime, this::complete);
      }

      private void send(BenchmarkMessage reply) {
        synchronized (responses) {
          responses.onNext(reply);
        }
      }

      private void complete() {
        synchronized (responses) {
          responses.onCompleted();
        }
      }
    };
  }
}
