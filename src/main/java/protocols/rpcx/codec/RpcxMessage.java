package protocols.rpcx.codec;

import com.google.protobuf.CodedInputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One rpcx frame, immutable: the header bits, the sequence number, service path and method, metadata
 * and the (uncompressed) payload. {@link #compressType()} says how the payload travels on the wire; the
 * encoder compresses and the decoder decompresses.
 *
 * <pre>{@code
 * RpcxMessage request = RpcxMessage.request("Hello", "Say")
 *     .serializeType(SerializeType.PROTOBUF).payload(bytes).seq(0).build();
 * }</pre>
 */
public final class RpcxMessage {

  /** The first byte of every frame. */
  public static final byte MAGIC = 0x08;

  /** The metadata key of an error reply's message. */
  public static final String ERROR_KEY = "__rpcx_error__";

  /** The metadata key of the call's timeout in milliseconds, from the client's deadline. */
  public static final String SERVER_TIMEOUT_KEY = "__ServerTimeout";

  /** The metadata key of an authentication token. */
  public static final String AUTH_KEY = "__AUTH";

  private static final byte[] EMPTY = new byte[0];

  private final int version;
  private final boolean response;
  private final boolean heartbeat;
  private final boolean oneway;
  private final CompressType compressType;
  private final boolean error;
  private final SerializeType serializeType;
  private final long seq;
  private final String servicePath;
  private final String serviceMethod;
  private final Map<String, String> metadata;
  private final byte[] payload;

  private RpcxMessage(Builder b) {
    this.version = b.version;
    this.response = b.response;
    this.heartbeat = b.heartbeat;
    this.oneway = b.oneway;
    this.compressType = b.compressType;
    this.error = b.error;
    this.serializeType = b.serializeType;
    this.seq = b.seq;
    this.servicePath = b.servicePath;
    this.serviceMethod = b.serviceMethod;
    // a builder's own map is handed over (its next change copies it); one taken from a message is shared
    this.metadata =
        b.metadata.isEmpty() ? Map.of() : b.ownsMetadata ? Collections.unmodifiableMap(b.metadata) : b.metadata;
    b.metadata = this.metadata;
    b.ownsMetadata = false;
    this.payload = b.payload;
  }

  /** A request to {@code servicePath.serviceMethod}, seq 0, no metadata, empty payload. */
  public static Builder request(String servicePath, String serviceMethod) {
    return new Builder().servicePath(servicePath).serviceMethod(serviceMethod);
  }

  /** An empty builder: a normal request with serialize type none. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The start of the reply to this request, as rpcx makes it: the same header with the response bit
   * set and compression none, the same path and method, no metadata, empty payload.
   */
  public Builder replyBuilder() {
    return toBuilder().response(true).compressType(CompressType.NONE).metadata(Map.of()).payload(EMPTY);
  }

  /** The error reply to this request: status error, {@value #ERROR_KEY} = {@code message}. */
  public RpcxMessage errorReply(String message) {
    return replyBuilder().error(true).metadata(Map.of(ERROR_KEY, message)).build();
  }

  public Builder toBuilder() {
    Builder b = new Builder();
    b.version = version;
    b.response = response;
    b.heartbeat = heartbeat;
    b.oneway = oneway;
    b.compressType = compressType;
    b.error = error;
    b.serializeType = serializeType;
    b.seq = seq;
    b.servicePath = servicePath;
    b.serviceMethod = serviceMethod;
    b.metadata = metadata; // copied only if the builder changes it: most calls' copies never do
    b.payload = payload;
    return b;
  }

  public int version() {
    return version;
  }

  /** True for a response, false for a request. */
  public boolean isResponse() {
    return response;
  }

  public boolean isHeartbeat() {
    return heartbeat;
  }

  /** A oneway request gets no response. */
  public boolean isOneway() {
    return oneway;
  }

  public CompressType compressType() {
    return compressType;
  }

  /** True when the status bits say error: the message is in {@link #errorMessage()}. */
  public boolean isError() {
    return error;
  }

  public SerializeType serializeType() {
    return serializeType;
  }

  /** The sequence number, an unsigned 64-bit integer held in a long. */
  public long seq() {
    return seq;
  }

  public String servicePath() {
    return servicePath;
  }

  public String serviceMethod() {
    return serviceMethod;
  }

  /** Unmodifiable, in the order the pairs were added or read. */
  public Map<String, String> metadata() {
    return metadata;
  }

  /** The error message of an error reply, or null. */
  public String errorMessage() {
    return metadata.get(ERROR_KEY);
  }

  /** A copy of the uncompressed payload. */
  public byte[] payload() {
    return payload.clone();
  }

  public int payloadLength() {
    return payload.length;
  }

  /** The uncompressed payload, read-only, without copying. */
  public ByteBuffer payloadBuffer() {
    return ByteBuffer.wrap(payload).asReadOnlyBuffer();
  }

  /**
   * The uncompressed payload as protobuf's reader, without copying: protobuf copies a read-only buffer
   * ({@link #payloadBuffer()}) before reading it, a copy per reply that is most of the reply's decoding.
   * The reader copies out what it returns, so the payload stays as it is.
   */
  public CodedInputStream payloadReader() {
    return CodedInputStream.newInstance(payload);
  }

  /** The payload array itself, for the codec of this package, which never changes it. */
  byte[] payloadArray() {
    return payload;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RpcxMessage m
        && version == m.version
        && response == m.response
        && heartbeat == m.heartbeat
        && oneway == m.oneway
        && compressType == m.compressType
        && error == m.error
        && serializeType == m.serializeType
        && seq == m.seq
        && servicePath.equals(m.servicePath)
        && serviceMethod.equals(m.serviceMethod)
        && metadata.equals(m.metadata)
        && Arrays.equals(payload, m.payload);
  }

  @Override
  public int hashCode() {
    return Objects.hash(seq, servicePath, serviceMethod, metadata, Arrays.hashCode(payload));
  }

  @Override
  public String toString() {
    return (response ? "response" : "request")
        + (heartbeat ? " heartbeat" : "")
        + (oneway ? " oneway" : "")
        + (error ? " error" : "")
        + " seq "
        + Long.toUnsignedString(seq)
        + " "
        + servicePath
        + "."
        + serviceMethod
        + " "
        + serializeType
        + (compressType == CompressType.NONE ? "" : " " + compressType)
        + " metadata "
        + metadata
        + ", "
        + payload.length
        + "-byte payload";
  }

  /** Builds an {@link RpcxMessage}; every setter returns this builder. */
  public static final class Builder {
    private int version;
    private boolean response;
    private boolean heartbeat;
    private boolean oneway;
    private CompressType compressType = CompressType.NONE;
    private boolean error;
    private SerializeType serializeType = SerializeType.NONE;
    private long seq;
    private String servicePath = "";
    private String serviceMethod = "";
    private Map<String, String> metadata = Map.of();
    /** False while {@link #metadata} is a message's (immutable) map or was handed to one: copy before changing it. */
    private boolean ownsMetadata;
    private byte[] payload = EMPTY;

    private Builder() {}

    public Builder version(int version) {
      if (version < 0 || version > 255) {
        throw new IllegalArgumentException("rpcx version: expected 0-255, got " + version);
      }
      this.version = version;
      return this;
    }

    public Builder response(boolean response) {
      this.response = response;
      return this;
    }

    public Builder heartbeat(boolean heartbeat) {
      this.heartbeat = heartbeat;
      return this;
    }

    public Builder oneway(boolean oneway) {
      this.oneway = oneway;
      return this;
    }

    public Builder compressType(CompressType compressType) {
      this.compressType = Objects.requireNonNull(compressType, "compressType");
      return this;
    }

    public Builder error(boolean error) {
      this.error = error;
      return this;
    }

    public Builder serializeType(SerializeType serializeType) {
      this.serializeType = Objects.requireNonNull(serializeType, "serializeType");
      return this;
    }

    public Builder seq(long seq) {
      this.seq = seq;
      return this;
    }

    public Builder servicePath(String servicePath) {
      this.servicePath = Objects.requireNonNull(servicePath, "servicePath");
      return this;
    }

    public Builder serviceMethod(String serviceMethod) {
      this.serviceMethod = Objects.requireNonNull(serviceMethod, "serviceMethod");
      return this;
    }

    /** Replaces the metadata; keys and values must not be null. */
    public Builder metadata(Map<String, String> metadata) {
      LinkedHashMap<String, String> copy = new LinkedHashMap<>();
      metadata.forEach(this::checkPair);
      copy.putAll(metadata);
      this.metadata = copy;
      this.ownsMetadata = true;
      return this;
    }

    public Builder putMetadata(String key, String value) {
      checkPair(key, value);
      if (!ownsMetadata) {
        metadata = new LinkedHashMap<>(metadata);
        ownsMetadata = true;
      }
      metadata.put(key, value);
      return this;
    }

    /** The uncompressed payload; the array is not copied, so do not change it afterwards. */
    public Builder payload(byte[] payload) {
      this.payload = Objects.requireNonNull(payload, "payload");
      return this;
    }

    public RpcxMessage build() {
      return new RpcxMessage(this);
    }

    private void checkPair(String key, String value) {
      if (key == null || value == null) {
        throw new IllegalArgumentException(
            "rpcx metadata: keys and values must not be null, got " + key + "=" + value);
      }
    }
  }
}
