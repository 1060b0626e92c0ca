package protocols.thrift;

import org.apache.thrift.async.TAsyncClient;
import org.apache.thrift.async.TAsyncClientManager;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TNonblockingTransport;

/**
 * Creates the generated async client of a Thrift service on a pooled connection. Every generated
 * {@code Xxx.AsyncClient} has a constructor of this shape, so pass {@code Xxx.AsyncClient::new}.
 *
 * @param <S> the generated async client, such as {@code Greeter.AsyncClient}
 */
@FunctionalInterface
public interface ThriftService<S extends TAsyncClient> {

  S create(
      TProtocolFactory protocolFactory, TAsyncClientManager manager, TNonblockingTransport transport);
}
