package benchmark.bench;

import static org.junit.jupiter.api.Assertions.*;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import protocols.testkit.SystemProperties;

/**
 * A seconds-long run of each bench command, so that they keep working; the real measurements are
 * BENCHMARKS.md's, not these.
 */
class BenchSmokeTest {

  @TempDir Path out;

  @Test
  void overheadAlternatesTheBareLoopAndGatlingRunAfterRun() throws Exception {
    // rpcx alone: gRPC's bare loop runs in the accuracy and peers tests, the alternation is the same code
    Path results = SystemProperties.with(
        Map.of("frameworks", "rpcx", "levels", "5", "connections", "1", "warmup", "1", "settle", "1", "hold", "2", "runs", "2",
            "out", out.toString()),
        Overhead::execute);

    String table = Files.readString(results.resolve("overhead.md"));
    assertTrue(table.contains("| rpcx | 5 | 1 | 2 |"), "two pairs: " + table);
    assertTrue(Files.exists(results.resolve("rpcx/5/run-2/bare.json")), "the second pair's bare loop");
    assertFalse(table.contains("wrote no") || table.contains("KO:"), table);
    for (String side : new String[] {"bare", "gatling"}) {
      Usages usage = Usages.read(results.resolve("rpcx/5/run-1/" + side + ".usage.json"));
      assertTrue(usage.calls() > 0 && usage.injector() != null && usage.injector().userMicros() + usage.injector().systemMicros() > 0
          && usage.server() != null && usage.server().userMicros() + usage.server().systemMicros() > 0,
          "/proc's reading of the " + side + " run's window, injector and server: " + usage);
    }
    assertTrue(table.contains("Where the CPU per call goes") && table.contains("| rpcx | 5 | "), table);
    long recorded = benchmark.matrix.GatlingResults.measured(
        benchmark.matrix.GatlingResults.newestRun(results.resolve("rpcx/5/run-1/gatling"))).path("count").asLong();
    long measured = Usages.read(results.resolve("rpcx/5/run-1/gatling.usage.json")).calls();
    assertTrue(measured > 0 && measured < recorded, "Gatling measured after its first second of 'Say' (-Dsettle=1): "
        + measured + " of its " + recorded + " calls");
  }

  @Test
  void overheadComparesTheBareLoopWithGatlingForThriftDubboAndMotan() throws Exception {
    Path results = SystemProperties.with(
        Map.of("frameworks", "thrift,dubbo,motan", "levels", "5", "warmup", "0", "hold", "2", "runs", "1", "out", out.toString()),
        Overhead::execute);

    String table = Files.readString(results.resolve("overhead.md"));
    assertTrue(table.contains("| thrift | 5 | per-user |") && table.contains("| dubbo | 5 | 4 |") && table.contains("| motan | 5 | 4 |"), table);
    assertTrue(table.contains("| thrift-netty | 5 | per-user |"), "the bare loop on the protocol's own client: " + table);
    assertFalse(table.contains("wrote no") || table.contains("KO:"), table);
  }

  @Test
  void streamingComparesGatlingStreamsWithABareGrpcJavaLoop() throws Exception {
    Path results = SystemProperties.with(
        Map.of("levels", "4", "connections", "1", "messages", "10", "warmup", "3", "hold", "3", "pairs", "1", "out", out.toString()),
        StreamingOverhead::execute);

    String table = Files.readString(results.resolve("streaming.md"));
    assertTrue(table.contains("| ServerStream | 4 | 1 | 10 |") && table.contains("| BidiStream | 4 | 1 | 10 |"), table);
    assertFalse(table.contains("wrote no") || table.contains("KO:"), table);
  }

  @Test
  void scaleSamplesTheInjectorAtTwoLevels() throws Exception {
    Path results = SystemProperties.with(
        Map.of("frameworks", "grpc", "low", "2", "high", "20", "ramp", "1", "hold", "2", "out", out.toString()),
        Scale::execute);

    String table = Files.readString(results.resolve("scale.md"));
    assertTrue(table.contains("| grpc |"), table);
    assertFalse(table.contains("no record"), table);
  }

  @Test
  void accuracyReportsLatencyBeyondTheServiceTime() throws Exception {
    Path results = SystemProperties.with(
        Map.of("frameworks", "grpc", "level", "5", "serviceTime", "10ms", "hold", "2", "out", out.toString()),
        Accuracy::execute);

    String table = Files.readString(results.resolve("accuracy.md"));
    assertTrue(table.contains("| grpc |"), table);
    assertFalse(table.contains("no record") || table.contains("bare loop wrote no result"), table);
    assertFalse(table.contains("| – |"), "the server's own timing of its replies: " + table);
    // 5 users waiting 10 ms each could make 500 calls a second; what the bare loop made tells saturation apart
    assertTrue(table.contains("the users could make 500"), table);
    JsonNode row = new ObjectMapper().readTree(results.resolve("accuracy.json").toFile()).get(0);
    assertTrue(row.get("bareCallsPerSecond").asDouble() > 0 && row.get("bareCpuPerCallUs").asDouble() > 0, table);
  }

  @Test
  void peersComparesGatlingWithGhzGrpcJavasAsyncClientAndRpcxsGoClient() throws Exception {
    Path results = SystemProperties.with(
        Map.of("levels", "5", "connections", "1", "warmup", "1", "hold", "2", "runs", "1", "out", out.toString()),
        Peers::execute);

    String table = Files.readString(results.resolve("peers.md"));
    JsonNode rows = new ObjectMapper().readTree(results.resolve("peers.json").toFile());
    for (String peer : List.of("ghz", "grpc-java", "rpcx")) {
      JsonNode row = StreamSupport.stream(rows.spliterator(), false)
          .filter(r -> r.get("peer").asText().equals(peer))
          .findFirst()
          .orElseThrow(() -> new AssertionError("no row for " + peer + ":\n" + table));
      assertTrue(row.get("peerThroughput").asDouble() > 0, peer + " measured nothing:\n" + table);
      assertTrue(row.get("gatlingThroughput").asDouble() > 0, "Gatling measured nothing against " + peer + "'s server:\n" + table);
    }
    assertFalse(table.contains("wrote no"), table);
  }

  @Test
  void stubFreeComparesCallsWithoutStubsWithStubsAndGhz() throws Exception {
    Path results = SystemProperties.with(
        Map.of("level", "5", "connections", "1", "pairs", "1", "warmup", "1", "hold", "2", "out", out.toString()),
        StubFree::execute);

    String table = Files.readString(results.resolve("stubfree.md"));
    JsonNode round = new ObjectMapper().readTree(results.resolve("stubfree.json").toFile()).get(0);
    for (String side : List.of("stubsThroughput", "stubFreeThroughput", "ghzThroughput")) {
      assertTrue(round.get(side).asDouble() > 0, side + " is nothing:\n" + table);
    }
    assertTrue(round.get("stubFreeCpuPerCall").asDouble() > 0, table);
    assertFalse(table.contains("wrote no") || table.contains("KO:"), table);
  }
}
