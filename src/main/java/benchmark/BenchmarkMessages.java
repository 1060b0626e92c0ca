package benchmark;

import benchmark.pb.BenchmarkMessage;

/**
 * The seed benchmark's message, in one place: the request its clients send (581 bytes encoded) and the
 * rule its servers apply (field1 "OK", field2 100: 527 bytes).
 */
public final class BenchmarkMessages {

  /** Every string field of the request. */
  public static final String TEXT = "许多往事在眼前一幕一幕，变的那麼模糊";

  /** Every integer field of the request. */
  public static final int NUMBER = 100000;

  public static final String OK = "OK";

  private static final BenchmarkMessage REQUEST = buildRequest();

  private BenchmarkMessages() {}

  /**
   * The request as the seed's Go client fills it: every string the same text, every integer 100000,
   * every bool true, field5 empty (39 of 40 fields set). The 2016 Java clients forgot field22.
   */
  public static BenchmarkMessage request() {
    return REQUEST;
  }

  /** What every benchmark server answers: the request with field1 "OK" and field2 100. */
  public static BenchmarkMessage reply(BenchmarkMessage request) {
    return request.toBuilder().setField1(OK).setField2(100).build();
  }

  /** The server rule on an encoded message, for the frameworks that carry it as bytes. */
  public static byte[] reply(byte[] encodedRequest) {
    try {
      return reply(BenchmarkMessage.parseFrom(encodedRequest)).toByteArray();
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalArgumentException(
          "expected an encoded BenchmarkMessage, got " + encodedRequest.length + " bytes that are not one: " + e.getMessage(), e);
    }
  }

  /** Field1 of an encoded reply, for the frameworks that carry the message as bytes. */
  public static String field1(byte[] encodedReply) {
    try {
      return BenchmarkMessage.parseFrom(encodedReply).getField1();
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      throw new IllegalArgumentException("the reply is not a BenchmarkMessage: " + e.getMessage(), e);
    }
  }

  /** True when a reply is what the server rule produces: the client's success criterion. */
  public static boolean isOk(BenchmarkMessage reply) {
    return OK.equals(reply.getField1());
  }

  private static BenchmarkMessage buildRequest() {
    return BenchmarkMessage.newBuilder()
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
        .setField131(NUMBER)
        .build();
  }
}
