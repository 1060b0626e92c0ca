package protocols.grpc;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.DynamicMessage;
import com.google.protobuf.InvalidProtocolBufferException;
import com.google.protobuf.UnsafeByteOperations;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor.Marshaller;
import java.io.IOException;
import java.io.InputStream;
import protocols.core.DeferredResponse;

/**
 * A reply of a method called without stubs, kept as its bytes: {@code response(...)} decodes it into a
 * {@link DynamicMessage} on first use, {@code jsonPath(...)} reads its JSON tree straight from the
 * bytes, and a call checked by its status alone decodes nothing.
 */
final class ReceivedMessage implements DeferredResponse {

  private final Descriptor type;
  private final ByteString bytes;
  private DynamicMessage message; // checks run on the user's event loop, one at a time

  ReceivedMessage(Descriptor type, ByteString bytes) {
    this.type = type;
    this.bytes = bytes;
  }

  @Override
  public DynamicMessage decoded() throws InvalidProtocolBufferException {
    if (message == null) {
      try {
        message = DynamicMessage.parseFrom(type, bytes);
      } catch (InvalidProtocolBufferException e) {
        throw new InvalidProtocolBufferException("the reply is not a valid " + type.getFullName() + ": " + e.getMessage());
      }
    }
    return message;
  }

  /** The canonical proto3 JSON tree; from the message when a check decoded it already. */
  JsonNode json() throws InvalidProtocolBufferException {
    if (message != null) {
      return ProtoJsonTree.of(message);
    }
    try {
      return ProtoJsonTree.of(type, bytes);
    } catch (InvalidProtocolBufferException e) {
      throw new InvalidProtocolBufferException("the reply is not a valid " + type.getFullName() + ": " + e.getMessage());
    }
  }

  @Override
  public String toString() {
    return "a " + bytes.size() + "-byte " + type.getFullName();
  }

  /** Keeps each reply's bytes; a request never goes through it (requests are DynamicMessages). */
  static Marshaller<ReceivedMessage> marshaller(Descriptor type) {
    return new Marshaller<>() {
      @Override
      public InputStream stream(ReceivedMessage value) {
        return value.bytes.newInput();
      }

      @Override
      public ReceivedMessage parse(InputStream stream) {
        try {
          // grpc's message streams know their length exactly, as its own protobuf marshaller relies on
          byte[] read = stream instanceof KnownLength ? stream.readNBytes(stream.available()) : stream.readAllBytes();
          return new ReceivedMessage(type, UnsafeByteOperations.unsafeWrap(read));
        } catch (IOException e) {
          throw io.grpc.Status.INTERNAL.withDescription("reading a " + type.getFullName() + " reply: " + e.getMessage())
              .withCause(e).asRuntimeException();
        }
      }
    };
  }
}
