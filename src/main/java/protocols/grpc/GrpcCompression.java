package protocols.grpc;

import io.grpc.CompressorRegistry;

/** The compressors grpc-java has: {@code gzip} and {@code identity} (none). */
final class GrpcCompression {

  private GrpcCompression() {}

  static String require(String compressor, String where) {
    if (compressor == null || CompressorRegistry.getDefaultInstance().lookupCompressor(compressor) == null) {
      throw new IllegalArgumentException(where + ": expected gzip or identity, got " + compressor);
    }
    return compressor;
  }
}
