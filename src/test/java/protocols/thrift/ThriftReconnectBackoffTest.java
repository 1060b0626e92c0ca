package protocols.thrift;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.thrift.ThriftDsl.*;

import benchmark.thrift.ThriftBenchmarkMessages;
import benchmark.thrift.ThriftBenchmarkServer;
import benchmark.thrift.gen.BenchmarkMessage;
import benchmark.thrift.gen.Greeter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import protocols.testkit.DroppingTarget;
import protocols.testkit.ServerComesBack;

/**
 * The reconnect backoff (protocols.core.ReconnectBackoff) through the real Gatling engine: a thousand
 * users with a connection each, against a target that accepts every connection and closes it at once.
 */
class ThriftReconnectBackoffTest {

  private static ThriftRequestBuilder<Greeter.AsyncClient, BenchmarkMessage, BenchmarkMessage> say() {
    return thrift("say")
        .service(Greeter.AsyncClient::new)
        .call(Greeter.AsyncClient::say)
        .payload(ThriftBenchmarkMessages.request());
  }

  @Test
  void aThousandUsersMakeAtMostFiftyConnectionAttemptsASecondAgainstATargetThatDropsThem() throws Exception {
    DroppingTarget.assertAThousandUsersKnockAtMostFiftyTimesASecond(
        port -> thrift.target("127.0.0.1:" + port).connectionPerUser(), say(), port -> "the connection to 127.0.0.1:" + port + " broke");
  }

  @Test
  void callsSucceedAgainWithinOneBackoffStepOnceTheServerIsBack() throws Exception {
    Duration maxDelay = Duration.ofSeconds(1);
    ServerComesBack.assertCallsSucceedWithinOneStep(
        port -> ThriftBenchmarkServer.start("127.0.0.1", port, Duration.ZERO),
        port -> thrift.target("127.0.0.1:" + port).connectionPerUser().reconnectBackoff(Duration.ofMillis(100), maxDelay),
        maxDelay,
        say().check(response(BenchmarkMessage::getField1).is("OK")),
        50);
  }
}
