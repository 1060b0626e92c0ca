package benchmark.matrix;

import java.util.List;
import java.util.Map;

/**
 * The seed benchmark's published 2016 figures, read from its charts (approximate): two 24-core Xeon
 * machines, client and server apart, 1,000,000 calls per run. Shown beside ours for shape, not for
 * absolute comparison.
 */
final class SeedResults {

  private SeedResults() {}

  static final List<Integer> LEVELS = List.of(100, 500, 1000, 2000, 5000);

  /** Calls per second by framework id, at LEVELS. */
  static final Map<String, List<Integer>> THROUGHPUT =
      Map.of(
          "rpcx", List.of(128_000, 136_000, 155_000, 159_000, 161_000),
          "thrift", List.of(130_000, 124_000, 113_000, 99_000, 76_000),
          "grpc", List.of(68_000, 78_000, 79_000, 58_000, 45_000),
          "motan", List.of(59_000, 57_000, 52_000, 44_000, 37_000),
          "dubbo", List.of(32_000, 37_000, 31_000, 29_000, 16_000));

  /** Mean latency in milliseconds by framework id, at LEVELS (the seed's charts have no Thrift line). */
  static final Map<String, List<Double>> MEAN_MS =
      Map.of(
          "dubbo", List.of(2.0, 14.0, 33.0, 71.0, 177.0),
          "motan", List.of(2.5, 8.5, 20.0, 44.0, 108.0),
          "rpcx", List.of(1.0, 3.0, 6.0, 11.0, 26.0),
          "grpc", List.of(1.0, 5.0, 10.0, 19.0, 43.0));

  static final String SETUP =
      "2016, two identical machines (Intel Xeon E5-2620 v2, 24 cores, 16 GB, CentOS 6.4), client and"
          + " server apart; Go 1.7, Java 8; 1,000,000 calls per run; values read from the published charts"
          + " (about ±1k calls/s). Their latencies were timed in whole milliseconds.";
}
