package protocols.thrift.codec;

import org.apache.thrift.protocol.TMessage;

/**
 * One whole message from the server: its header (for the sequence id) and its bytes without a frame
 * length, for the generated code to decode.
 */
public record ThriftReply(TMessage header, byte[] message) {}
