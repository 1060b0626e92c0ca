package protocols.thrift;

import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;
import org.apache.thrift.protocol.TProtocolFactory;

/** How Thrift encodes messages on the wire: client and server must use the same. */
public enum ThriftEncoding {
  /** {@code TBinaryProtocol}, Thrift's default and the seed benchmark's. */
  BINARY {
    @Override
    TProtocolFactory factory() {
      return new TBinaryProtocol.Factory();
    }
  },
  /** {@code TCompactProtocol}: variable-length integers, smaller messages. */
  COMPACT {
    @Override
    TProtocolFactory factory() {
      return new TCompactProtocol.Factory();
    }
  };

  abstract TProtocolFactory factory();
}
