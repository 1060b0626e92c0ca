package benchmark.motan;

/**
 * The seed's Motan service: the protobuf-encoded {@code BenchmarkMessage} in, the encoded reply out,
 * carried as {@code byte[]} by Motan's default serialization (hessian2).
 */
public interface BenchmarkService {

  byte[] say(byte[] message);
}
