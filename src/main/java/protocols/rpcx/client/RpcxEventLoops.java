package protocols.rpcx.client;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.HashedWheelTimer;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.util.concurrent.TimeUnit;

/** The I/O threads and the timeout timer every rpcx connection of this JVM shares (daemon threads). */
final class RpcxEventLoops {

  private RpcxEventLoops() {}

  static final EventLoopGroup GROUP =
      new MultiThreadIoEventLoopGroup(
          Math.max(2, Runtime.getRuntime().availableProcessors()),
          new DefaultThreadFactory("rpcx-client", true),
          NioIoHandler.newFactory());

  /** A wheel, not the event loop's scheduler: cancelled timeouts of completed calls cost nothing. */
  static final HashedWheelTimer TIMER =
      new HashedWheelTimer(new DefaultThreadFactory("rpcx-client-timeouts", true), 10, TimeUnit.MILLISECONDS);
}
