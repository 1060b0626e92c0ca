package protocols.thrift;

import static org.junit.jupiter.api.Assertions.*;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.thrift.async.AsyncMethodCallback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import protocols.core.HostAndPort;
import protocols.core.SelfTimedFuture;
import protocols.thrift.calculator.Calculator;
import protocols.thrift.client.ThriftClientSettings;
import protocols.thrift.client.ThriftConnection;
import protocols.thrift.codec.ThriftMessageDecoder;

/** Which calls the bridge may leave to the connection's own timer, and which it must bound itself. */
class GeneratedCallsTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final EventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());

  @AfterEach
  void stop() throws InterruptedException {
    loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
  }

  private ThriftConnection connect(CalculatorServer server) {
    ThriftClientSettings settings =
        new ThriftClientSettings(
            HostAndPort.parse(server.address(), "target"),
            Duration.ofSeconds(5),
            ThriftTransport.FRAMED,
            ThriftEncoding.BINARY,
            null,
            ThriftMessageDecoder.DEFAULT_MAX_MESSAGE_LENGTH);
    return ThriftConnection.open(settings, loops, NioSocketChannel::new, true);
  }

  /** 40 + 2 through {@code method}. */
  private static CompletableFuture<Long> add(
      ThriftConnection connection, ThriftMethod<Calculator.AsyncClient, long[], Long> method) throws Exception {
    return GeneratedCalls.send(connection, ThriftEncoding.BINARY, Calculator.AsyncClient::new, method, new long[] {40, 2}, TIMEOUT);
  }

  @Test
  void aCallWithAReplyIsTimedByTheConnectionSoTheBridgeSetsNoBackstopTimer() throws Exception {
    try (CalculatorServer server = CalculatorServer.binary(); ThriftConnection connection = connect(server)) {
      CompletableFuture<Long> sum = add(connection, (client, ab, callback) -> client.add(ab[0], ab[1], callback));

      assertInstanceOf(SelfTimedFuture.class, sum);
      assertEquals(42L, sum.get(10, TimeUnit.SECONDS));
    }
  }

  @Test
  void aCallWhoseCallbackTheUserWrapsIsLeftToTheBridgesBackstop() throws Exception {
    try (CalculatorServer server = CalculatorServer.binary(); ThriftConnection connection = connect(server)) {
      CompletableFuture<Long> sum =
          add(connection, (client, ab, callback) -> client.add(ab[0], ab[1], new AsyncMethodCallback<Long>() {
            @Override
            public void onComplete(Long response) {
              callback.onComplete(response);
            }

            @Override
            public void onError(Exception exception) {
              callback.onError(exception);
            }
          }));

      // nothing says the user's callback ever completes ours: only the bridge's own timer bounds it
      assertFalse(sum instanceof SelfTimedFuture, "a call through the user's callback must not be taken as self-timed");
      assertEquals(42L, sum.get(10, TimeUnit.SECONDS));
    }
  }
}
