package protocols.grpc;

import benchmark.BenchmarkMessages;
import benchmark.pb.BenchmarkMessage;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * The CPU of each step a stub-free call adds, on the benchmark's messages, against what generated code
 * does, in one JVM and one thread (thread CPU time: what the machine's load disturbs least). The old
 * JSON view (JsonFormat text parsed by Jackson) and the tree of a decoded message are measured beside
 * the tree jsonPath reads now, straight from the reply's bytes.
 *
 * <pre>mvn -q test-compile exec:java -Dexec.mainClass=protocols.grpc.StubFreeSteps -Dexec.classpathScope=test</pre>
 */
public final class StubFreeSteps {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static volatile Object sink;

  private StubFreeSteps() {}

  public static void main(String[] args) throws Exception {
    Descriptor type = BenchmarkMessage.getDescriptor();
    BenchmarkMessage request = BenchmarkMessages.request();
    byte[] reply = BenchmarkMessages.reply(request).toByteArray();
    DynamicMessage dynamicReply = DynamicMessage.parseFrom(type, reply);
    DynamicMessage dynamicRequest = DynamicMessage.parseFrom(type, request.toByteArray());
    if (!JSON.readTree(ProtoJsonTree.PRINTER.print(dynamicReply)).equals(ProtoJsonTree.of(dynamicReply))) {
      throw new IllegalStateException("the tree differs from the printed JSON's");
    }
    System.out.printf(Locale.ROOT, "µs of thread CPU per operation (best of 5 x 20,000), a %d-byte reply, a %d-byte request%n",
        reply.length, request.getSerializedSize());
    step("reply decoding, generated code", () -> BenchmarkMessage.parseFrom(reply));
    step("reply decoding, DynamicMessage", () -> DynamicMessage.parseFrom(type, reply));
    step("reply JSON view: JsonFormat text + Jackson", () -> JSON.readTree(ProtoJsonTree.PRINTER.print(dynamicReply)));
    step("reply JSON view: ProtoJsonTree", () -> ProtoJsonTree.of(dynamicReply));
    ByteString replyBytes = ByteString.copyFrom(reply);
    if (!ProtoJsonTree.of(type, replyBytes).equals(ProtoJsonTree.of(dynamicReply))) {
      throw new IllegalStateException("the tree read from the bytes differs from the message's");
    }
    step("reply JSON view: ProtoJsonTree from the bytes", () -> ProtoJsonTree.of(type, replyBytes));
    // per reply with a jsonPath check: what the marshaller and the check did before, and do now
    step("jsonPath reply, before: decode + tree", () -> ProtoJsonTree.of(DynamicMessage.parseFrom(type, reply)));
    step("jsonPath reply, now: bytes kept + tree", () -> new ReceivedMessage(type, ByteString.copyFrom(reply)).json());
    step("status-only reply, now: bytes kept", () -> new ReceivedMessage(type, ByteString.copyFrom(reply)));
    step("request encoding, generated code", request::toByteArray);
    step("request encoding, DynamicMessage", dynamicRequest::toByteArray);
  }

  private static void step(String name, Callable<Object> operation) throws Exception {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    int n = 20_000;
    for (int i = 0; i < 2 * n; i++) {
      sink = operation.call(); // JIT warm-up
    }
    double best = Double.MAX_VALUE;
    for (int round = 0; round < 5; round++) {
      long start = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < n; i++) {
        sink = operation.call();
      }
      best = Math.min(best, (threads.getCurrentThreadCpuTime() - start) / 1000.0 / n);
    }
    System.out.printf(Locale.ROOT, "%-50s %6.2f%n", name, best);
  }
}
