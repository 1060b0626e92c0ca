package protocols.rpcx.client;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;

/** The I/O threads every rpcx connection of this JVM shares when no Gatling event loop is given (daemon threads). */
final class RpcxEventLoops {

  private RpcxEventLoops() {}

  static final EventLoopGroup GROUP =
      new MultiThreadIoEventLoopGroup(
          Math.max(2, Runtime.getRuntime().availableProcessors()),
          new DefaultThreadFactory("rpcx-client", true),
          NioIoHandler.newFactory());
}
