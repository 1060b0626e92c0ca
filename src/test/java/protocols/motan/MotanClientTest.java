package protocols.motan;

import static org.junit.jupiter.api.Assertions.*;

import com.weibo.api.motan.exception.MotanFrameworkException;
import org.junit.jupiter.api.Test;

/**
 * Why a call fails on a Motan client that was closed while the call was on its way to a sender thread:
 * the pool closes a client once a call has found the provider unreachable, and other calls already
 * handed that client must fail for that reason, as the report groups them, not for the simulation's end.
 */
class MotanClientTest {

  private static MotanClient directClient() {
    return new MotanClient(MotanDsl.motan.target("127.0.0.1:1").protocol());
  }

  @Test
  void aCallOnAClientClosedForAnUnreachableProviderFailsWithTheProvidersFailure() {
    MotanClient client = directClient();
    MotanFrameworkException unreachable =
        new MotanFrameworkException("NettyClient getChannel Error: url=motan://127.0.0.1:1/benchmark.motan.BenchmarkService");
    client.unreachable(unreachable);
    client.close();

    RuntimeException failure = assertThrows(RuntimeException.class, () -> client.service(CalculatorAsync.class));

    assertSame(unreachable, failure);
    assertEquals("UNAVAILABLE", MotanFailures.describe(failure).status());
  }

  @Test
  void aCallOnAClientClosedAtTheSimulationsEndSaysSo() {
    MotanClient client = directClient();
    client.close();

    IllegalStateException failure = assertThrows(IllegalStateException.class, () -> client.service(CalculatorAsync.class));

    assertEquals("the simulation is over: its Motan clients are closed", failure.getMessage());
  }
}
