package protocols.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * Assertions on the exact microsecond record, next to Gatling's own (which read its millisecond
 * estimates): declared in a simulation, checked when the run ends, listed on the console and in
 * rpc-assertions.xml (JUnit form), and failing the run as Gatling's assertions do.
 *
 * <pre>{@code
 * import static protocols.core.report.RpcAssertions.*;
 *
 * rpcAssertions(allRequests().after(Duration.ofSeconds(5)),
 *     percentile(99.9).lt(Duration.ofMillis(50)), failedPercent().lt(0.1), throughput().gt(10_000));
 * }</pre>
 *
 * {@code allRequests()} is named apart from Gatling's {@code forAll()} so that both DSLs can be imported.
 * Without {@code .after}, {@code -Dwarmup} (when set) is left out; a window is cut at whole seconds.
 */
public final class RpcAssertions {

  private RpcAssertions() {}

  /** Declares assertions for the run of the simulation being built. */
  public static void rpcAssertions(Scope scope, Condition... conditions) {
    if (conditions.length == 0) {
      throw new IllegalArgumentException("rpcAssertions(" + scope + "): expected at least one condition, e.g. percentile(99).lt(Duration.ofMillis(50))");
    }
    List<Assertion> declared = new ArrayList<>();
    for (Condition c : conditions) {
      declared.add(new Assertion(scope, c));
    }
    RunEnd.declare(declared);
  }

  /** An assertion as run.json keeps it, for a merge of injectors' runs to check it again ({@link #read}). */
  static Map<String, Object> describe(Assertion a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("request", a.scope().requestName());
    m.put("afterMillis", a.scope().after() == null ? null : a.scope().after().toMillis());
    m.put("metric", a.condition().metric().label());
    m.put("op", a.condition().op());
    m.put("bound", a.condition().bound());
    return m;
  }

  /** An assertion {@link #describe} wrote. */
  static Assertion read(JsonNode n) {
    String label = n.path("metric").asText();
    Metric metric = switch (label) {
      case "mean" -> mean();
      case "max" -> max();
      case "min" -> min();
      case "failed %" -> failedPercent();
      case "failed calls" -> failedCount();
      case "throughput" -> throughput();
      default -> {
        if (!label.matches("p[0-9.]+")) {
          throw new IllegalArgumentException("an assertion on '" + label + "': expected p<percentile>, mean, max, min, failed %, failed calls or throughput");
        }
        yield percentile(Double.parseDouble(label.substring(1)));
      }
    };
    JsonNode after = n.path("afterMillis");
    return new Assertion(
        new Scope(n.path("request").asText(), after.isNumber() ? Duration.ofMillis(after.asLong()) : null),
        new Condition(metric, n.path("op").asText(), n.path("bound").asDouble()));
  }

  /** The calls of every request name together. */
  public static Scope allRequests() {
    return new Scope(RunData.ALL, null);
  }

  /** The calls of one request name, as it shows in the report. */
  public static Scope request(String name) {
    return new Scope(name, null);
  }

  public static Metric percentile(double percentile) {
    if (!(percentile > 0 && percentile <= 100)) {
      throw new IllegalArgumentException("percentile(" + percentile + "): expected a percentile in (0, 100]");
    }
    String label = "p" + (percentile == Math.rint(percentile) ? String.valueOf((long) percentile) : String.valueOf(percentile));
    return Metric.latency(label, s -> s.percentile(percentile));
  }

  public static Metric mean() {
    return Metric.latency("mean", Calls::mean);
  }

  public static Metric max() {
    return Metric.latency("max", Calls::max);
  }

  public static Metric min() {
    return Metric.latency("min", Calls::min);
  }

  /** KO calls in percent of all calls. */
  public static Metric failedPercent() {
    return new Metric("failed %", Kind.PERCENT, s -> s.stats().failedPercent());
  }

  public static Metric failedCount() {
    return new Metric("failed calls", Kind.COUNT, s -> s.stats().ko());
  }

  /** Calls completed per second. */
  public static Metric throughput() {
    return new Metric("throughput", Kind.RATE, s -> s.stats().throughput());
  }

  /** Which calls an assertion reads; {@code after} leaves out a warm-up from the first call on. */
  public record Scope(String requestName, Duration after) {
    public Scope after(Duration warmup) {
      if (warmup == null || warmup.isNegative()) {
        throw new IllegalArgumentException("after(" + warmup + "): expected a non-negative duration");
      }
      return new Scope(requestName, warmup);
    }

    @Override
    public String toString() {
      return (RunData.ALL.equals(requestName) ? "all requests" : "'" + requestName + "'");
    }
  }

  enum Kind {
    LATENCY, PERCENT, COUNT, RATE;

    String format(double v) {
      return switch (this) {
        case LATENCY -> String.format(Locale.ROOT, "%.3f ms", v / 1000);
        case PERCENT -> String.format(Locale.ROOT, "%.3f %%", v);
        case COUNT -> String.format(Locale.ROOT, "%.0f", v);
        case RATE -> String.format(Locale.ROOT, "%.1f/s", v);
      };
    }
  }

  /** A figure of the exact record; latencies compare in microseconds. */
  public record Metric(String label, Kind kind, ToDoubleFunction<Calls> value) {
    static Metric latency(String label, ToDoubleFunction<Calls> value) {
      return new Metric(label, Kind.LATENCY, value);
    }

    public Condition lt(double bound) {
      return condition("<", bound);
    }

    public Condition lte(double bound) {
      return condition("<=", bound);
    }

    public Condition gt(double bound) {
      return condition(">", bound);
    }

    public Condition gte(double bound) {
      return condition(">=", bound);
    }

    public Condition is(double bound) {
      return condition("==", bound);
    }

    public Condition lt(Duration bound) {
      return latencyCondition("<", bound);
    }

    public Condition lte(Duration bound) {
      return latencyCondition("<=", bound);
    }

    public Condition gt(Duration bound) {
      return latencyCondition(">", bound);
    }

    public Condition gte(Duration bound) {
      return latencyCondition(">=", bound);
    }

    /** A plain number on a latency is in milliseconds, as in Gatling's {@code percentile(99).lt(50)}. */
    private Condition condition(String op, double bound) {
      return new Condition(this, op, kind == Kind.LATENCY ? bound * 1000 : bound);
    }

    private Condition latencyCondition(String op, Duration bound) {
      if (kind != Kind.LATENCY) {
        throw new IllegalArgumentException(label + "." + (op.startsWith("<") ? "lt" : "gt") + "(" + bound + "): " + label + " is not a latency; expected a number");
      }
      return new Condition(this, op, bound.toNanos() / 1000.0);
    }
  }

  /** A metric compared with a bound (microseconds for latencies). */
  public record Condition(Metric metric, String op, double bound) {
    boolean holds(double actual) {
      return switch (op) {
        case "<" -> actual < bound;
        case "<=" -> actual <= bound;
        case ">" -> actual > bound;
        case "==" -> actual == bound;
        default -> actual >= bound;
      };
    }
  }

  /** A declared assertion: a condition on the calls of a scope. */
  public record Assertion(Scope scope, Condition condition) {
    /** "exact p99.9 of all requests after 5 s < 50.000 ms" */
    public String describe(Duration warmup) {
      Duration after = scope.after() != null ? scope.after() : warmup;
      return "exact " + condition.metric().label() + " of " + scope
          + (after != null && !after.isZero() ? " after " + after.toMillis() / 1000.0 + " s" : "")
          + " " + condition.op() + " " + condition.metric().kind().format(condition.bound());
    }
  }
}
