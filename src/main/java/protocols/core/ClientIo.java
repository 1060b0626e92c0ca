package protocols.core;

import io.netty.channel.ChannelFactory;
import io.netty.channel.EventLoop;
import io.netty.channel.socket.SocketChannel;

/**
 * Where a client may run its network I/O: on one of Gatling's own event loops, with a socket type that
 * loop can drive. A client built on Netty that uses it gets its replies on the thread of the virtual
 * users waiting for them, so that no call hops between threads (the main cost of an injector per call).
 * Clients whose library brings its own threads ignore it.
 *
 * @param eventLoop for a per-user client, the user's own event loop; for a shared one, one of Gatling's
 * @param socketChannels makes sockets of the transport Gatling's loops run (epoll, io_uring or NIO)
 */
public record ClientIo(EventLoop eventLoop, ChannelFactory<? extends SocketChannel> socketChannels) {}
