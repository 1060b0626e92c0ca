package benchmark.grpc;

import benchmark.BenchmarkMessages;
import benchmark.pb.grpctesting.Payload;
import benchmark.pb.grpctesting.SimpleRequest;
import benchmark.pb.grpctesting.SimpleResponse;
import com.google.protobuf.ByteString;

/**
 * grpc.testing.BenchmarkService/UnaryCall, sized like the seed's benchmark: the request carries a body
 * as long as the seed's encoded request (581 bytes) and asks for a reply body as long as the seed's
 * encoded reply (527 bytes), as grpc-java's AsyncClient does with {@code --client_payload} and
 * {@code --server_payload}.
 */
public final class UnaryCallMessages {

  /** The request body's length: the seed's encoded request. */
  public static final int CLIENT_PAYLOAD = BenchmarkMessages.request().getSerializedSize();

  /** The reply body's length the request asks for: the seed's encoded reply. */
  public static final int SERVER_PAYLOAD = BenchmarkMessages.reply(BenchmarkMessages.request()).getSerializedSize();

  /** The largest reply body the server makes: a bigger response_size is refused, not allocated. */
  public static final int MAX_RESPONSE_SIZE = 4 * 1024 * 1024;

  private static final SimpleRequest REQUEST =
      SimpleRequest.newBuilder()
          .setResponseSize(SERVER_PAYLOAD)
          .setPayload(Payload.newBuilder().setBody(ByteString.copyFrom(new byte[CLIENT_PAYLOAD])))
          .build();

  private UnaryCallMessages() {}

  /** What AsyncClient sends: zero bytes as the body, the reply's size asked for. */
  public static SimpleRequest request() {
    return REQUEST;
  }

  /** The server rule: a body of {@code response_size} zero bytes; the request's own body is not echoed. */
  public static SimpleResponse reply(SimpleRequest request) {
    int size = request.getResponseSize();
    if (size < 0 || size > MAX_RESPONSE_SIZE) {
      throw new IllegalArgumentException("response_size " + size + ": expected 0 to " + MAX_RESPONSE_SIZE + " bytes");
    }
    return SimpleResponse.newBuilder().setPayload(Payload.newBuilder().setBody(ByteString.copyFrom(new byte[size]))).build();
  }
}
