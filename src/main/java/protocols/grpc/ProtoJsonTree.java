package protocols.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A message's canonical proto3 JSON as the Jackson tree Gatling's {@code jsonPath(...)} checks, built
 * from the message's fields: the same tree as printing it with {@link JsonFormat} (fields without
 * presence included) and parsing the text with Jackson, at a fraction of the cost (no text, no
 * second parse). Well-known types, whose JSON has forms of its own, and messages that may carry
 * extensions go through the printer.
 */
final class ProtoJsonTree {

  /** The printer whose output this tree equals, and the fallback for the types it does not map itself. */
  static final JsonFormat.Printer PRINTER =
      JsonFormat.printer().alwaysPrintFieldsWithNoPresence().omittingInsignificantWhitespace();

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Messages with a JSON form of their own (google/protobuf/*.proto's special cases). */
  private static final Set<String> PRINTED =
      Set.of(
          "google.protobuf.Any", "google.protobuf.Timestamp", "google.protobuf.Duration", "google.protobuf.FieldMask",
          "google.protobuf.Struct", "google.protobuf.Value", "google.protobuf.ListValue", "google.protobuf.BoolValue",
          "google.protobuf.Int32Value", "google.protobuf.UInt32Value", "google.protobuf.Int64Value",
          "google.protobuf.UInt64Value", "google.protobuf.StringValue", "google.protobuf.BytesValue",
          "google.protobuf.FloatValue", "google.protobuf.DoubleValue");

  private ProtoJsonTree() {}

  static JsonNode of(MessageOrBuilder message) throws InvalidProtocolBufferException {
    Descriptor type = message.getDescriptorForType();
    if (PRINTED.contains(type.getFullName()) || type.isExtendable()) {
      return printed(message);
    }
    ObjectNode object = NODES.objectNode();
    for (FieldDescriptor field : byNumber(type)) {
      // the printer's set: the fields present, and those without presence (repeated, proto3 scalars) at any value
      if (!field.hasPresence() || message.hasField(field)) {
        object.set(field.getJsonName(), field(field, message.getField(field)));
      }
    }
    return object;
  }

  /** The fields in the printer's order (by number), once per type. */
  private static List<FieldDescriptor> byNumber(Descriptor type) {
    return BY_NUMBER.computeIfAbsent(
        type, t -> t.getFields().stream().sorted(Comparator.comparingInt(FieldDescriptor::getNumber)).toList());
  }

  private static final Map<Descriptor, List<FieldDescriptor>> BY_NUMBER = new ConcurrentHashMap<>();

  private static JsonNode field(FieldDescriptor field, Object value) throws InvalidProtocolBufferException {
    if (field.isMapField()) {
      Descriptor entryType = field.getMessageType();
      FieldDescriptor keyField = entryType.findFieldByName("key");
      FieldDescriptor valueField = entryType.findFieldByName("value");
      ObjectNode map = NODES.objectNode();
      for (Object element : (List<?>) value) {
        MessageOrBuilder entry = (MessageOrBuilder) element;
        map.set(key(keyField, entry.getField(keyField)), single(valueField, entry.getField(valueField)));
      }
      return map;
    }
    if (field.isRepeated()) {
      ArrayNode array = NODES.arrayNode();
      for (Object element : (List<?>) value) {
        array.add(single(field, element));
      }
      return array;
    }
    return single(field, value);
  }

  /** One value, typed as Jackson types the printer's text (an int that fits is an IntNode, a float goes through its decimal form). */
  private static JsonNode single(FieldDescriptor field, Object value) throws InvalidProtocolBufferException {
    return switch (field.getType()) {
      case INT32, SINT32, SFIXED32 -> IntNode.valueOf((Integer) value);
      case UINT32, FIXED32 -> number(Integer.toUnsignedLong((Integer) value));
      case INT64, SINT64, SFIXED64 -> TextNode.valueOf(Long.toString((Long) value));
      case UINT64, FIXED64 -> TextNode.valueOf(Long.toUnsignedString((Long) value));
      case BOOL -> BooleanNode.valueOf((Boolean) value);
      case FLOAT -> {
        float f = (Float) value;
        yield Float.isNaN(f) || Float.isInfinite(f) ? nonFinite(f) : DoubleNode.valueOf(Double.parseDouble(Float.toString(f)));
      }
      case DOUBLE -> {
        double d = (Double) value;
        yield Double.isNaN(d) || Double.isInfinite(d) ? nonFinite(d) : DoubleNode.valueOf(d);
      }
      case STRING -> TextNode.valueOf((String) value);
      case BYTES -> TextNode.valueOf(Base64.getEncoder().encodeToString(((ByteString) value).toByteArray()));
      case ENUM -> {
        EnumValueDescriptor e = (EnumValueDescriptor) value;
        if (field.getEnumType().getFullName().equals("google.protobuf.NullValue")) {
          yield NullNode.getInstance();
        }
        yield e.getIndex() == -1 ? IntNode.valueOf(e.getNumber()) : TextNode.valueOf(e.getName());
      }
      case MESSAGE, GROUP -> of((MessageOrBuilder) value);
    };
  }

  private static JsonNode number(long value) {
    return value == (int) value ? IntNode.valueOf((int) value) : LongNode.valueOf(value);
  }

  private static JsonNode nonFinite(double value) {
    return TextNode.valueOf(Double.isNaN(value) ? "NaN" : value > 0 ? "Infinity" : "-Infinity");
  }

  /** A map key as the printer quotes it. */
  private static String key(FieldDescriptor field, Object key) {
    return switch (field.getType()) {
      case UINT32, FIXED32 -> Long.toString(Integer.toUnsignedLong((Integer) key));
      case UINT64, FIXED64 -> Long.toUnsignedString((Long) key);
      default -> String.valueOf(key);
    };
  }

  private static JsonNode printed(MessageOrBuilder message) throws InvalidProtocolBufferException {
    try {
      return JSON.readTree(PRINTER.print(message));
    } catch (InvalidProtocolBufferException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("the printed JSON did not parse: " + e.getMessage(), e);
    }
  }
}
