package protocols.rpcx;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.rpcx.RpcxDsl.*;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import benchmark.rpcx.RpcxBenchmarkServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import protocols.testkit.DroppingTarget;
import protocols.testkit.ServerComesBack;

/**
 * The reconnect backoff (protocols.core.ReconnectBackoff) in front of rpcx's connections, through the real
 * Gatling engine: a thousand users with a connection each against a target that accepts every connection
 * and closes it at once, and a real server that takes the target's port back.
 */
class RpcxReconnectBackoffTest {

  private static RpcxRequestBuilder<com.google.protobuf.MessageLite, BenchmarkMessage> say() {
    return rpcx("say").call("Hello", "Say").protobuf(BenchmarkMessage.parser()).payload(BenchmarkMessages.request());
  }

  @Test
  void aThousandUsersMakeAtMostFiftyConnectionAttemptsASecondAgainstATargetThatDropsThem() throws Exception {
    DroppingTarget.assertAThousandUsersKnockAtMostFiftyTimesASecond(
        port -> rpcx.target("127.0.0.1:" + port).connectionPerUser(), say(), port -> "connection to 127.0.0.1:" + port);
  }

  @Test
  void callsSucceedAgainWithinOneBackoffStepOnceTheServerIsBack() throws Exception {
    Duration maxDelay = Duration.ofSeconds(1);
    ServerComesBack.assertCallsSucceedWithinOneStep(
        port -> RpcxBenchmarkServer.start("127.0.0.1", port, Duration.ZERO),
        port -> rpcx.target("127.0.0.1:" + port).connectionPerUser().reconnectBackoff(Duration.ofMillis(100), maxDelay),
        maxDelay,
        say().check(response(BenchmarkMessage::getField1).is(BenchmarkMessages.OK)),
        50);
  }

  @Test
  void aBackoffThatIsNotPositiveIsRefusedNamingTheOption() {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> rpcx.target("127.0.0.1:1").reconnectBackoff(Duration.ZERO, Duration.ofSeconds(1)));
    assertTrue(error.getMessage().startsWith("rpcx.reconnectBackoff: "), error.getMessage());
  }
}
