package protocols.thrift.client;

import java.time.Duration;
import java.util.Objects;
import protocols.core.HostAndPort;
import protocols.thrift.ThriftEncoding;
import protocols.thrift.ThriftTransport;

/**
 * How one Thrift connection talks to its server.
 *
 * @param service the multiplexed service name ({@code TMultiplexedProtocol}); null when the server
 *     is not multiplexed
 * @param maxMessageLength the largest reply accepted, in bytes
 */
public record ThriftClientSettings(
    HostAndPort target,
    Duration connectTimeout,
    ThriftTransport transport,
    ThriftEncoding encoding,
    String service,
    int maxMessageLength) {

  public ThriftClientSettings {
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(connectTimeout, "connectTimeout");
    Objects.requireNonNull(transport, "transport");
    Objects.requireNonNull(encoding, "encoding");
  }

  /** "framed binary", "buffered compact, service Greeter". */
  public String wire() {
    return transport.label() + " " + encoding.label() + (service == null ? "" : ", service " + service);
  }
}
