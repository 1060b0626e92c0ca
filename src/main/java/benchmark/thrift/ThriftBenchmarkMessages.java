package benchmark.thrift;

import benchmark.BenchmarkMessages;
import benchmark.thrift.gen.BenchmarkMessage;
import com.google.protobuf.Descriptors.FieldDescriptor;
import java.util.Map;

/**
 * The seed benchmark's message as a Thrift struct: the request its Thrift clients send and the rule
 * its server applies, the same as {@link BenchmarkMessages} does for the protobuf message.
 */
public final class ThriftBenchmarkMessages {

  private ThriftBenchmarkMessages() {}

  /**
   * The request as the seed fills it: every string the same 18-character text, every integer 100000,
   * every bool true; field5 (an i64 in the Thrift variant) left unset, as the protobuf's empty
   * repeated field5. Thrift structs are mutable: this is a copy, safe to change.
   */
  public static BenchmarkMessage request() {
    return Request.VALUE.deepCopy();
  }

  /** The server rule: a copy of the request with field1 "OK" and field2 100. */
  public static BenchmarkMessage reply(BenchmarkMessage request) {
    return request.deepCopy().setField1(BenchmarkMessages.OK).setField2(100);
  }

  /** True when a reply is what the server rule produces: the client's success criterion. */
  public static boolean isOk(BenchmarkMessage reply) {
    return BenchmarkMessages.OK.equals(reply.getField1());
  }

  /** Built on first use: the server's {@link #reply} then runs without protobuf on the classpath. */
  private static final class Request {
    static final BenchmarkMessage VALUE = buildRequest();
  }

  /**
   * The protobuf request's fields copied by number (both IDLs use the same ids, names and value
   * types), so that the seed's request is defined once, in {@link BenchmarkMessages}. Field5 is a
   * repeated field in protobuf, left empty, and a plain i64 here, left unset.
   */
  private static BenchmarkMessage buildRequest() {
    BenchmarkMessage thrift = new BenchmarkMessage();
    for (Map.Entry<FieldDescriptor, Object> field : BenchmarkMessages.request().getAllFields().entrySet()) {
      if (field.getKey().isRepeated()) {
        continue;
      }
      BenchmarkMessage._Fields id = BenchmarkMessage._Fields.findByThriftId(field.getKey().getNumber());
      if (id == null) {
        throw new IllegalStateException("thrift/benchmark.thrift has no field " + field.getKey().getNumber() + " of proto/benchmark.proto");
      }
      thrift.setFieldValue(id, field.getValue());
    }
    return thrift;
  }
}
