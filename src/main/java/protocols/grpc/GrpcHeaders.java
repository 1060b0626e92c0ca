package protocols.grpc;

import io.grpc.Metadata;

final class GrpcHeaders {

  private GrpcHeaders() {}

  static Metadata.Key<String> key(String name) {
    if (name == null || name.isBlank() || name.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
      throw new IllegalArgumentException(
          "grpc header: expected an ASCII metadata key not ending in -bin, got " + name);
    }
    try {
      return Metadata.Key.of(name, Metadata.ASCII_STRING_MARSHALLER);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("grpc header '" + name + "': " + e.getMessage());
    }
  }
}
