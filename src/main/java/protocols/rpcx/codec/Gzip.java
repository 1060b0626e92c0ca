package protocols.rpcx.codec;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/** rpcx's gzip compressor; decompression is bounded so that a small bomb cannot fill the heap. */
final class Gzip {

  private Gzip() {}

  static byte[] zip(byte[] data) {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.max(64, data.length / 2));
    try (GZIPOutputStream gzip = new GZIPOutputStream(out)) {
      gzip.write(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
    }
    return out.toByteArray();
  }

  /** Inflates {@code data}, refusing to produce more than {@code maxBytes}. */
  static byte[] unzip(byte[] data, int maxBytes) {
    try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(data))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(maxBytes, data.length * 4 + 64));
      byte[] chunk = new byte[8192];
      int total = 0;
      for (int n; (n = in.read(chunk)) > 0; ) {
        total += n;
        if (total > maxBytes) {
          throw new RpcxFrameException(
              "gzip payload inflates beyond the maximum frame size of " + maxBytes + " bytes");
        }
        out.write(chunk, 0, n);
      }
      return out.toByteArray();
    } catch (IOException | RuntimeException e) {
      if (e instanceof RpcxFrameException frame) {
        throw frame;
      }
      throw new RpcxFrameException("the payload is marked gzip but is not valid gzip: " + e.getMessage(), e);
    }
  }
}
