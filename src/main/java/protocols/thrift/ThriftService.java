package protocols.thrift;

import org.apache.thrift.async.TAsyncClient;
import org.apache.thrift.async.TAsyncClientManager;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TNonblockingTransport;

/**
 * Creates the generated async client of a Thrift service, one per call. Every generated {@code
 * Xxx.AsyncClient} has a constructor of this shape, so pass {@code Xxx.AsyncClient::new}. The protocol
 * hands it a manager that only keeps the generated call (the connection, on Netty, does the I/O) and no
 * transport ({@code null}): a constructor of your own must not use them.
 *
 * @param <S> the generated async client, such as {@code Greeter.AsyncClient}
 */
@FunctionalInterface
public interface ThriftService<S extends TAsyncClient> {

  S create(
      TProtocolFactory protocolFactory, TAsyncClientManager manager, TNonblockingTransport transport);
}
