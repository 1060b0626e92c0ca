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
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.EnumValueDescriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.WireFormat;
import com.google.protobuf.util.JsonFormat;
import java.io.IOException;
import java.util.Arrays;
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

  /**
   * The same tree read straight from a message's wire bytes, field by field, without building the
   * message: values as {@link DynamicMessage} decodes them (the last of a singular field, packed or
   * not, a closed enum's unknown number left out, one oneof member), then mapped as {@link #of}
   * maps them. Types this does not read itself go through a decoded message.
   */
  static JsonNode of(Descriptor type, ByteString bytes) throws InvalidProtocolBufferException {
    Layout layout = layout(type);
    if (!layout.direct) {
      return of(DynamicMessage.parseFrom(type, bytes));
    }
    CodedInputStream in = bytes.newCodedInput();
    in.enableAliasing(true); // nested messages and bytes as slices of the reply, not copies
    try {
      return object(layout, in);
    } catch (InvalidProtocolBufferException e) {
      throw e;
    } catch (IOException e) {
      throw new InvalidProtocolBufferException(e);
    }
  }

  private static ObjectNode object(Layout layout, CodedInputStream in) throws IOException {
    FieldDescriptor[] fields = layout.fields;
    Object[] values = new Object[fields.length]; // a JsonNode, an ArrayNode, an ObjectNode (map) or a message's ByteString
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      int i = layout.index(WireFormat.getTagFieldNumber(tag));
      if (i < 0) {
        if (!in.skipField(tag)) {
          throw new InvalidProtocolBufferException("an end-group tag outside a group");
        }
        continue;
      }
      FieldDescriptor field = fields[i];
      int wireType = WireFormat.getTagWireType(tag);
      if (field.isMapField()) {
        if (wireType != WireFormat.WIRETYPE_LENGTH_DELIMITED) {
          in.skipField(tag);
          continue;
        }
        ObjectNode map = values[i] == null ? NODES.objectNode() : (ObjectNode) values[i];
        entry(field, in.readBytes(), map);
        values[i] = map;
      } else if (field.isRepeated()) {
        ArrayNode array = values[i] == null ? NODES.arrayNode() : (ArrayNode) values[i];
        if (wireType == field.getLiteType().getWireType()) {
          addValue(field, in, array);
        } else if (field.isPackable() && wireType == WireFormat.WIRETYPE_LENGTH_DELIMITED) {
          int limit = in.pushLimit(in.readRawVarint32());
          while (in.getBytesUntilLimit() > 0) {
            addValue(field, in, array);
          }
          in.popLimit(limit);
        } else {
          in.skipField(tag); // as the decoder does: a wire type the field cannot have is an unknown field
          continue;
        }
        values[i] = array;
      } else if (wireType != field.getLiteType().getWireType()) {
        in.skipField(tag);
      } else if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
        ByteString part = in.readBytes();
        // a message field seen twice is the merge of both: the same as decoding their bytes joined
        values[i] = values[i] instanceof ByteString earlier ? earlier.concat(part) : part;
        clearOneof(layout, i, values);
      } else {
        Object value = read(field, in);
        if (value != null) {
          values[i] = single(field, value);
          clearOneof(layout, i, values);
        }
      }
    }
    ObjectNode object = NODES.objectNode();
    for (int i = 0; i < fields.length; i++) {
      FieldDescriptor field = fields[i];
      Object value = values[i];
      if (value instanceof ByteString message) {
        object.set(field.getJsonName(), of(field.getMessageType(), message));
      } else if (value != null) {
        object.set(field.getJsonName(), (JsonNode) value);
      } else if (field.isRequired()) {
        throw new InvalidProtocolBufferException("the required field " + field.getFullName() + " is missing");
      } else if (field.isMapField()) {
        object.set(field.getJsonName(), NODES.objectNode());
      } else if (field.isRepeated()) {
        object.set(field.getJsonName(), NODES.arrayNode());
      } else if (!field.hasPresence()) {
        object.set(field.getJsonName(), layout.defaults[i]);
      }
    }
    return object;
  }

  private static void clearOneof(Layout layout, int i, Object[] values) {
    for (int other : layout.oneofSiblings[i]) {
      values[other] = null;
    }
  }

  private static void addValue(FieldDescriptor field, CodedInputStream in, ArrayNode array) throws IOException {
    if (field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
      array.add(of(field.getMessageType(), in.readBytes()));
    } else {
      Object value = read(field, in);
      if (value != null) {
        array.add(single(field, value));
      }
    }
  }

  /** One map entry, its key and value at their defaults when absent; a later entry of a key replaces it in place. */
  private static void entry(FieldDescriptor mapField, ByteString bytes, ObjectNode map) throws IOException {
    Descriptor entryType = mapField.getMessageType();
    FieldDescriptor keyField = entryType.findFieldByNumber(1);
    FieldDescriptor valueField = entryType.findFieldByNumber(2);
    Object key = keyField.getDefaultValue();
    Object value = null;
    ByteString message = null;
    CodedInputStream in = bytes.newCodedInput();
    in.enableAliasing(true);
    for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
      int number = WireFormat.getTagFieldNumber(tag);
      FieldDescriptor field = number == 1 ? keyField : number == 2 ? valueField : null;
      if (field == null || WireFormat.getTagWireType(tag) != field.getLiteType().getWireType()) {
        in.skipField(tag);
      } else if (field == valueField && field.getJavaType() == FieldDescriptor.JavaType.MESSAGE) {
        ByteString part = in.readBytes();
        message = message == null ? part : message.concat(part);
      } else {
        Object read = read(field, in);
        if (read != null && field == keyField) {
          key = read;
        } else if (read != null) {
          value = read;
        }
      }
    }
    JsonNode node =
        valueField.getJavaType() == FieldDescriptor.JavaType.MESSAGE
            ? of(valueField.getMessageType(), message == null ? ByteString.EMPTY : message)
            : single(valueField, value == null ? valueField.getDefaultValue() : value);
    map.set(key(keyField, key), node);
  }

  /** A scalar as DynamicMessage holds it (null: a closed enum's unknown number, which it keeps as an unknown field). */
  private static Object read(FieldDescriptor field, CodedInputStream in) throws IOException {
    return switch (field.getType()) {
      case INT32 -> in.readInt32();
      case SINT32 -> in.readSInt32();
      case SFIXED32 -> in.readSFixed32();
      case UINT32 -> in.readUInt32();
      case FIXED32 -> in.readFixed32();
      case INT64 -> in.readInt64();
      case SINT64 -> in.readSInt64();
      case SFIXED64 -> in.readSFixed64();
      case UINT64 -> in.readUInt64();
      case FIXED64 -> in.readFixed64();
      case FLOAT -> in.readFloat();
      case DOUBLE -> in.readDouble();
      case BOOL -> in.readBool();
      case STRING -> field.needsUtf8Check() ? in.readStringRequireUtf8() : in.readString();
      case BYTES -> in.readBytes();
      case ENUM -> {
        int number = in.readEnum();
        yield field.legacyEnumFieldTreatedAsClosed()
            ? field.getEnumType().findValueByNumber(number)
            : field.getEnumType().findValueByNumberCreatingIfUnknown(number);
      }
      case MESSAGE, GROUP -> throw new IllegalStateException(field.getFullName() + " is not a scalar");
    };
  }

  /** A type's fields by number as the wire reader looks them up, once per type. */
  private static final class Layout {
    final boolean direct;
    final FieldDescriptor[] fields;
    final int[][] oneofSiblings;
    final JsonNode[] defaults;
    private final int[] byNumber; // field number -> index + 1, for numbers up to its length
    private final Map<Integer, Integer> sparse;

    Layout(Descriptor type) {
      fields = byNumber(type).toArray(FieldDescriptor[]::new);
      direct =
          !PRINTED.contains(type.getFullName()) && !type.isExtendable()
              && Arrays.stream(fields).noneMatch(f -> f.getType() == FieldDescriptor.Type.GROUP);
      int max = fields.length == 0 ? 0 : fields[fields.length - 1].getNumber();
      byNumber = new int[Math.min(max, 1024) + 1];
      sparse = new java.util.HashMap<>();
      oneofSiblings = new int[fields.length][];
      defaults = new JsonNode[fields.length];
      for (int i = 0; i < fields.length; i++) {
        FieldDescriptor field = fields[i];
        if (field.getNumber() < byNumber.length) {
          byNumber[field.getNumber()] = i + 1;
        } else {
          sparse.put(field.getNumber(), i);
        }
        oneofSiblings[i] = new int[0];
        if (field.getRealContainingOneof() != null) {
          oneofSiblings[i] =
              field.getRealContainingOneof().getFields().stream()
                  .filter(other -> other != field)
                  .mapToInt(other -> Arrays.asList(fields).indexOf(other))
                  .toArray();
        }
        if (direct && !field.isRepeated() && !field.hasPresence()) {
          try {
            defaults[i] = single(field, field.getDefaultValue());
          } catch (InvalidProtocolBufferException e) {
            throw new IllegalStateException(e);
          }
        }
      }
    }

    int index(int number) {
      if (number < byNumber.length) {
        return byNumber[number] - 1;
      }
      return sparse.getOrDefault(number, -1);
    }
  }

  private static Layout layout(Descriptor type) {
    return LAYOUTS.computeIfAbsent(type, Layout::new);
  }

  private static final Map<Descriptor, Layout> LAYOUTS = new ConcurrentHashMap<>();

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
