package protocols.grpc;

import static org.junit.jupiter.api.Assertions.*;

import benchmark.BenchmarkMessages;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.Int64Value;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.Message;
import com.google.protobuf.NullValue;
import com.google.protobuf.Struct;
import com.google.protobuf.Timestamp;
import com.google.protobuf.Value;
import jsontree.pb.Color;
import jsontree.pb.Everything;
import jsontree.pb.Inner;
import org.junit.jupiter.api.Test;

/**
 * The JSON tree jsonPath checks is the one Jackson parses from JsonFormat's canonical text, for every
 * kind of field, built from a decoded message (streams) or read from the wire bytes (unary replies), with the values whose JSON is not their Java form (unsigned, 64-bit, floats, bytes,
 * unknown enums, well-known types). Compared as Jackson trees: an IntNode is not a LongNode.
 */
class ProtoJsonTreeTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void anEmptyProto3MessageHasItsFieldsWithoutPresenceAtTheirDefaults() throws Exception {
    JsonNode tree = assertSameAsPrinted(Everything.getDefaultInstance());
    assertEquals(0, tree.get("i32").intValue());
    assertEquals("0", tree.get("i64").textValue());
    assertEquals("COLOR_UNSET", tree.get("color").textValue());
    assertTrue(tree.get("inners").isArray());
    assertFalse(tree.has("inner"), "a message field without a value is left out");
    assertFalse(tree.has("maybe"), "an optional field without a value is left out");
  }

  @Test
  void everyScalarKindMapsAsTheCanonicalJsonDoes() throws Exception {
    Everything message =
        Everything.newBuilder()
            .setI32(-7).setS32(Integer.MIN_VALUE).setSf32(Integer.MAX_VALUE)
            .setU32(-1).setF32(0x80000000)
            .setI64(Long.MIN_VALUE).setS64(-1).setSf64(Long.MAX_VALUE)
            .setU64(-1).setF64(Long.MIN_VALUE)
            .setF(0.1f).setD(-0.0)
            .setB(true).setS("许多往事 \"quoted\" \\ </script>\n\u0001")
            .setBy(ByteString.copyFrom(new byte[] {0, -1, 62, 63, 64}))
            .setSnakeCaseName("json name")
            .build();
    JsonNode tree = assertSameAsPrinted(message);
    assertEquals(4294967295L, tree.get("u32").longValue());
    assertEquals("18446744073709551615", tree.get("u64").textValue());
    assertEquals("json name", tree.get("snakeCaseName").textValue());
  }

  @Test
  void nonFiniteFloatsAreStrings() throws Exception {
    assertSameAsPrinted(Everything.newBuilder().setF(Float.NaN).setD(Double.NEGATIVE_INFINITY).addFloats(Float.POSITIVE_INFINITY).build());
  }

  @Test
  void messagesListsMapsAndOneofsNest() throws Exception {
    Inner inner = Inner.newBuilder().setName("a").addValues(1.5).addValues(1e300).build();
    assertSameAsPrinted(
        Everything.newBuilder()
            .setInner(inner).addInners(inner).addInners(Inner.getDefaultInstance())
            .addLongs(1).addLongs(-2).addFloats(3.25f).addFloats(1e-10f)
            .putByName("x", inner).putByName("", Inner.getDefaultInstance())
            .putByU64(-1L, "max").putByU64(3, "three")
            .putByBool(true, 1).putByBool(false, 0)
            .putByInt(-5, Color.GREEN)
            .setMaybe(0)
            .setNested(inner)
            .addColors(Color.RED).addColorsValue(9)
            .build());
  }

  @Test
  void anUnknownEnumNumberIsANumber() throws Exception {
    JsonNode tree = assertSameAsPrinted(Everything.newBuilder().setColorValue(42).build());
    assertEquals(42, tree.get("color").intValue());
  }

  @Test
  void wellKnownTypesKeepTheirOwnJsonForms() throws Exception {
    JsonNode tree =
        assertSameAsPrinted(
            Everything.newBuilder()
                .setAt(Timestamp.newBuilder().setSeconds(1_700_000_000).setNanos(5_000))
                .setWrapped(Int64Value.of(12))
                .setStruct(Struct.newBuilder().putFields("k", Value.newBuilder().setNumberValue(2).build()))
                .setTook(com.google.protobuf.Duration.newBuilder().setSeconds(3))
                .setNothing(NullValue.NULL_VALUE)
                .setText("chosen")
                .build());
    assertEquals("2023-11-14T22:13:20.000005Z", tree.get("at").textValue());
    assertEquals("12", tree.get("wrapped").textValue());
    assertTrue(tree.get("nothing").isNull());
  }

  @Test
  void proto2DefaultsAreLeftOutAsTheBenchmarkReplyShows() throws Exception {
    assertSameAsPrinted(BenchmarkMessages.reply(BenchmarkMessages.request()));
  }

  @Test
  void bytesOfTwoMessagesJoinedReadAsTheirMerge() throws Exception {
    // the wire's merge: the last scalar and oneof member win, lists and maps add up, message fields merge
    Inner inner = Inner.newBuilder().setName("first").addValues(1).build();
    Everything first =
        Everything.newBuilder().setI32(1).setS("one").setInner(inner).addLongs(1).putByName("k", inner)
            .setNested(inner).setAt(Timestamp.newBuilder().setSeconds(5)).build();
    Everything second =
        Everything.newBuilder().setI32(2).setInner(Inner.newBuilder().addValues(2)).addLongs(2)
            .putByName("k", Inner.newBuilder().setName("second").build()).setText("chosen")
            .setAt(Timestamp.newBuilder().setNanos(7)).build();
    JsonNode tree = assertBytesSameAsPrinted(Everything.getDescriptor(), first.toByteString().concat(second.toByteString()));
    assertEquals("first", tree.at("/inner/name").textValue());
    assertEquals(2, tree.at("/inner/values").size());
    assertEquals("chosen", tree.get("text").textValue());
    assertFalse(tree.has("nested"), "a oneof holds its last member only");
  }

  @Test
  void unpackedListsUnknownFieldsAndWrongWireTypesReadAsTheDecoderReadsThem() throws Exception {
    ByteString.Output bytes = ByteString.newOutput();
    CodedOutputStream out = CodedOutputStream.newInstance(bytes);
    out.writeInt64(19, 5); // repeated int64 longs, unpacked
    out.writeInt64(19, -6);
    out.writeUInt64(99, 1); // unknown fields
    out.writeString(100, "unknown");
    out.writeString(1, "not an int32"); // i32 with a wire type it cannot have: an unknown field to the decoder
    out.writeInt32(16, 2); // color GREEN
    out.writeInt32(16, 7); // then an unknown number: the last wins
    out.flush();
    JsonNode tree = assertBytesSameAsPrinted(Everything.getDescriptor(), bytes.toByteString());
    assertEquals(2, tree.get("longs").size());
    assertEquals(7, tree.get("color").intValue());
  }

  @Test
  void truncatedBytesAreRefusedAsTheDecoderRefusesThem() throws Exception {
    ByteString whole = Everything.newBuilder().setS("a string cut short").build().toByteString();
    ByteString cut = whole.substring(0, whole.size() - 3);
    assertThrows(InvalidProtocolBufferException.class, () -> DynamicMessage.parseFrom(Everything.getDescriptor(), cut));
    InvalidProtocolBufferException e =
        assertThrows(InvalidProtocolBufferException.class, () -> ProtoJsonTree.of(Everything.getDescriptor(), cut));
    assertNotNull(e.getMessage());
  }

  @Test
  void aReplyKeptAsBytesDecodesOnlyWhenAskedAndSaysWhatItIsNot() throws Exception {
    ReceivedMessage reply = new ReceivedMessage(Everything.getDescriptor(), ByteString.copyFrom(new byte[] {10, 5, 'a'}));
    Exception json = assertThrows(InvalidProtocolBufferException.class, reply::json);
    assertTrue(json.getMessage().contains("not a valid jsontree.Everything"), json.getMessage());
    Exception decoded = assertThrows(InvalidProtocolBufferException.class, reply::decoded);
    assertTrue(decoded.getMessage().contains("not a valid jsontree.Everything"), decoded.getMessage());
    ReceivedMessage good = new ReceivedMessage(Everything.getDescriptor(), Everything.newBuilder().setI32(3).build().toByteString());
    assertEquals(3, good.json().get("i32").intValue());
    assertEquals(3, good.decoded().getField(Everything.getDescriptor().findFieldByName("i32")));
  }

  /**
   * The tree of {@code message} decoded as a DynamicMessage, as streams receive it, and the tree read
   * from its bytes, as unary calls receive it, both equal the printed text's.
   */
  private static JsonNode assertSameAsPrinted(Message message) throws Exception {
    DynamicMessage received = DynamicMessage.parseFrom(message.getDescriptorForType(), message.toByteString());
    String printed = ProtoJsonTree.PRINTER.print(received);
    JsonNode tree = ProtoJsonTree.of(received);
    assertEquals(JSON.readTree(printed), tree, "printed: " + printed);
    assertBytesSameAsPrinted(message.getDescriptorForType(), message.toByteString());
    return tree;
  }

  /** The tree read from {@code bytes} equals JsonFormat's text of the DynamicMessage decoded from them. */
  private static JsonNode assertBytesSameAsPrinted(Descriptor type, ByteString bytes) throws Exception {
    String printed = ProtoJsonTree.PRINTER.print(DynamicMessage.parseFrom(type, bytes));
    JsonNode tree = ProtoJsonTree.of(type, bytes);
    assertEquals(JSON.readTree(printed), tree, "from the bytes; printed: " + printed);
    return tree;
  }
}
