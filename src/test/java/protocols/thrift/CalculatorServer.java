package protocols.thrift;

import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.async.AsyncMethodCallback;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.server.TServer;
import org.apache.thrift.server.TThreadedSelectorServer;
import org.apache.thrift.transport.TNonblockingServerSocket;
import protocols.thrift.calculator.Calculator;
import protocols.thrift.calculator.DivisionByZero;

/** A real Thrift server of the test-only Calculator service, on a free loopback port. */
final class CalculatorServer implements AutoCloseable {

  private final org.apache.thrift.transport.TServerTransport socket;
  private final int port;
  private final TServer server;
  private final Thread serving;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "calculator-timer");
            t.setDaemon(true);
            return t;
          });

  private CalculatorServer(TProtocolFactory encoding) throws Exception {
    TNonblockingServerSocket nonblocking = new TNonblockingServerSocket(new InetSocketAddress("127.0.0.1", 0));
    socket = nonblocking;
    port = nonblocking.getPort();
    server =
        new TThreadedSelectorServer(
            new TThreadedSelectorServer.Args(nonblocking)
                .selectorThreads(1)
                .workerThreads(2)
                .protocolFactory(encoding)
                .processor(new Calculator.AsyncProcessor<>(new Handler())));
    serving = start(server);
  }

  /** libthrift's blocking TThreadPoolServer on a plain socket: the buffered (unframed) transport. */
  private CalculatorServer(TProtocolFactory encoding, boolean buffered) throws Exception {
    org.apache.thrift.transport.TServerSocket blocking =
        new org.apache.thrift.transport.TServerSocket(new InetSocketAddress("127.0.0.1", 0));
    socket = blocking;
    port = blocking.getServerSocket().getLocalPort();
    server =
        new org.apache.thrift.server.TThreadPoolServer(
            new org.apache.thrift.server.TThreadPoolServer.Args(blocking)
                .minWorkerThreads(1)
                .maxWorkerThreads(8)
                .protocolFactory(encoding)
                .processor(new Calculator.Processor<>(new SyncHandler())));
    serving = start(server);
  }

  static CalculatorServer buffered(TProtocolFactory encoding) throws Exception {
    return new CalculatorServer(encoding, true);
  }

  private Thread start(TServer server) throws InterruptedException {
    Thread serving = new Thread(server::serve, "calculator-server");
    serving.setDaemon(true);
    serving.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!server.isServing() && System.nanoTime() < deadline) {
      Thread.sleep(5);
    }
    return serving;
  }

  static CalculatorServer binary() throws Exception {
    return new CalculatorServer(new TBinaryProtocol.Factory());
  }

  static CalculatorServer compact() throws Exception {
    return new CalculatorServer(new TCompactProtocol.Factory());
  }

  String address() {
    return "127.0.0.1:" + port;
  }

  int port() {
    return port;
  }

  @Override
  public void close() throws InterruptedException {
    server.stop();
    serving.join(5000);
    socket.close();
    timer.shutdownNow();
  }

  private static final class SyncHandler implements Calculator.Iface {
    @Override
    public long add(long a, long b) {
      return a + b;
    }

    @Override
    public long divide(long dividend, long divisor) throws DivisionByZero {
      if (divisor == 0) {
        throw new DivisionByZero(dividend);
      }
      return dividend / divisor;
    }

    @Override
    public long crash(String reason) {
      throw new IllegalStateException(reason);
    }

    @Override
    public long echoLater(long a, int millis) throws org.apache.thrift.TException {
      try {
        Thread.sleep(millis);
      } catch (InterruptedException e) {
        throw new org.apache.thrift.TException(e);
      }
      return a;
    }
  }

  private final class Handler implements Calculator.AsyncIface {
    @Override
    public void add(long a, long b, AsyncMethodCallback<Long> result) {
      result.onComplete(a + b);
    }

    @Override
    public void divide(long dividend, long divisor, AsyncMethodCallback<Long> result) {
      if (divisor == 0) {
        result.onError(new DivisionByZero(dividend));
      } else {
        result.onComplete(dividend / divisor);
      }
    }

    @Override
    public void crash(String reason, AsyncMethodCallback<Long> result) {
      result.onError(new IllegalStateException(reason));
    }

    @Override
    public void echoLater(long a, int millis, AsyncMethodCallback<Long> result) {
      timer.schedule(() -> result.onComplete(a), millis, TimeUnit.MILLISECONDS);
    }
  }
}
