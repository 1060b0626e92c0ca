package benchmark.thrift;

import static benchmark.BenchmarkMessages.NUMBER;
import static benchmark.BenchmarkMessages.TEXT;

import benchmark.BenchmarkMessages;
import benchmark.thrift.gen.BenchmarkMessage;

/**
 * The seed benchmark's message as a Thrift struct: the request its Thrift clients send and the rule
 * its server applies, the same as {@link BenchmarkMessages} does for the protobuf message.
 */
public final class ThriftBenchmarkMessages {

  private static final BenchmarkMessage REQUEST = buildRequest();

  private ThriftBenchmarkMessages() {}

  /**
   * The request as the seed fills it: every string the same 18-character text, every integer 100000,
   * every bool true; field5 (an i64 in the Thrift variant) left unset, as the protobuf's empty
   * repeated field5. Thrift structs are mutable: this is a copy, safe to change.
   */
  public static BenchmarkMessage request() {
    return REQUEST.deepCopy();
  }

  /** The server rule: a copy of the request with field1 "OK" and field2 100. */
  public static BenchmarkMessage reply(BenchmarkMessage request) {
    return request.deepCopy().setField1(BenchmarkMessages.OK).setField2(100);
  }

  /** True when a reply is what the server rule produces: the client's success criterion. */
  public static boolean isOk(BenchmarkMessage reply) {
    return BenchmarkMessages.OK.equals(reply.getField1());
  }

  private static BenchmarkMessage buildRequest() {
    return new BenchmarkMessage()
        .setField1(TEXT)
        .setField9(TEXT)
        .setField18(TEXT)
        .setField80(true)
        .setField81(true)
        .setField2(NUMBER)
        .setField3(NUMBER)
        .setField280(NUMBER)
        .setField6(NUMBER)
        .setField22(NUMBER)
        .setField4(TEXT)
        .setField59(true)
        .setField7(TEXT)
        .setField16(NUMBER)
        .setField130(NUMBER)
        .setField12(true)
        .setField17(true)
        .setField13(true)
        .setField14(true)
        .setField104(NUMBER)
        .setField100(NUMBER)
        .setField101(NUMBER)
        .setField102(TEXT)
        .setField103(TEXT)
        .setField29(NUMBER)
        .setField30(true)
        .setField60(NUMBER)
        .setField271(NUMBER)
        .setField272(NUMBER)
        .setField150(NUMBER)
        .setField23(NUMBER)
        .setField24(true)
        .setField25(NUMBER)
        .setField78(true)
        .setField67(NUMBER)
        .setField68(NUMBER)
        .setField128(NUMBER)
        .setField129(TEXT)
        .setField131(NUMBER);
  }
}
