package protocols.motan;

import static org.junit.jupiter.api.Assertions.*;
import static protocols.motan.MotanDsl.*;

import benchmark.motan.BenchmarkService;
import benchmark.motan.BenchmarkServiceAsync;
import com.weibo.api.motan.rpc.ResponseFuture;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Bad input is refused at once, naming the input and the form expected. */
class MotanDslTest {

  interface OrphanAsync {
    ResponseFuture sayAsync(byte[] message); // no say(byte[]) to tell Motan the result type
  }

  private static String refusal(Runnable build) {
    return assertThrows(IllegalArgumentException.class, build::run).getMessage();
  }

  @Test
  void aTargetWithoutAPortIsRefused() {
    assertEquals(
        "motan.target=localhost: expected host:port, for example localhost:50051",
        refusal(() -> motan.target("localhost")));
  }

  @Test
  void aRegistryWithoutItsProtocolIsRefused() {
    assertEquals(
        "motan.registry=zk1:2181: expected <registry protocol>://<address>, for example zookeeper://localhost:2181",
        refusal(() -> motan.registry("zk1:2181")));
  }

  @Test
  void aProtocolWithNeitherTargetNorRegistryIsRefused() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> motan.group("g").protocol());
    assertTrue(e.getMessage().contains("add .target(\"host:port\") or .registry("), e.getMessage());
  }

  @Test
  void aZeroRequestTimeoutIsRefused() {
    assertTrue(refusal(() -> motan.requestTimeout(Duration.ZERO)).startsWith("motan.requestTimeout: expected a positive duration"));
  }

  @Test
  void moreMinimumThanMaximumConnectionsIsRefused() {
    assertEquals(
        "motan.clientConnections(4, 2): expected 1 <= min <= max",
        refusal(() -> motan.clientConnections(4, 2)));
  }

  @Test
  void aSynchronousInterfaceIsRefusedAsAService() {
    String message = refusal(() -> motan("say").service(BenchmarkService.class));
    assertTrue(message.contains("expected an asynchronous Motan interface, with methods named xxxAsync"), message);
  }

  @Test
  void anAsyncMethodWithoutItsSynchronousCounterpartIsRefused() {
    String message = refusal(() -> motan("say").service(OrphanAsync.class));
    assertTrue(message.contains("sayAsync has no synchronous counterpart say"), message);
  }

  @Test
  void theBenchmarkInterfaceIsAcceptedAndTheProtocolDescribesItself() {
    motan("say").service(BenchmarkServiceAsync.class).call(BenchmarkServiceAsync::sayAsync, byte[].class);
    assertEquals(
        "motan motan://127.0.0.1:8002, group default_rpc, version 1.0, hessian2, 1 shared connection(s) of 2 connection(s) each, request timeout 10000 ms",
        motan.target("127.0.0.1:8002").protocol().toString());
  }
}
