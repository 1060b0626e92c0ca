package protocols.rpcx.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import protocols.rpcx.codec.CompressType;
import protocols.rpcx.codec.RpcxDecoder;
import protocols.rpcx.codec.RpcxEncoder;
import protocols.rpcx.codec.RpcxMessage;

/**
 * A small rpcx server on this project's codec, behaving as rpcx's Go server does: routing by service
 * path and method, error replies worded as rpcx words them ({@code rpcx: can't find service X},
 * {@code rpcx: can't find method X}), heartbeats echoed, no reply to oneway requests, a reply over
 * 1024 bytes gzipped only when the request was. A client that sends a malformed frame is disconnected;
 * the server and its other clients go on.
 *
 * <pre>{@code
 * RpcxServer server = RpcxServer.builder()
 *     .register("Hello", "Say", request -> CompletableFuture.completedFuture(reply(request)))
 *     .start("127.0.0.1", 0);
 * }</pre>
 */
public final class RpcxServer implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(RpcxServer.class);

  private final EventLoopGroup boss;
  private final EventLoopGroup workers;
  private final Channel listener;
  private final AtomicLong malformedFrames = new AtomicLong();

  private RpcxServer(Builder b, String host, int port) throws InterruptedException {
    Map<String, Map<String, RpcxService>> services = Map.copyOf(b.services);
    int maxFrameLength = b.maxFrameLength;
    boss = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("rpcx-server-accept", true), NioIoHandler.newFactory());
    workers =
        new MultiThreadIoEventLoopGroup(
            b.ioThreads, new DefaultThreadFactory("rpcx-server", true), NioIoHandler.newFactory());
    try {
      listener =
          new ServerBootstrap()
              .group(boss, workers)
              .channel(NioServerSocketChannel.class)
              .option(ChannelOption.SO_BACKLOG, 4096)
              .option(ChannelOption.SO_REUSEADDR, true)
              .childOption(ChannelOption.TCP_NODELAY, true)
              .childHandler(
                  new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                      channel
                          .pipeline()
                          .addLast("decoder", new RpcxDecoder(maxFrameLength))
                          .addLast("encoder", RpcxEncoder.INSTANCE)
                          .addLast("requests", new Requests(services));
                    }
                  })
              .bind(host, port)
              .sync()
              .channel();
    } catch (InterruptedException | RuntimeException e) {
      boss.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      workers.shutdownGracefully(0, 1, TimeUnit.SECONDS);
      throw e;
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  public int port() {
    return ((InetSocketAddress) listener.localAddress()).getPort();
  }

  /** Connections closed so far because their client sent a malformed frame. */
  public long malformedFrames() {
    return malformedFrames.get();
  }

  @Override
  public void close() {
    listener.close().syncUninterruptibly();
    boss.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    workers.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
  }

  /** Collects the services of a server. */
  public static final class Builder {
    private final Map<String, Map<String, RpcxService>> services = new HashMap<>();
    private int maxFrameLength = RpcxDecoder.DEFAULT_MAX_FRAME_LENGTH;
    private int ioThreads = Math.max(2, Runtime.getRuntime().availableProcessors());

    private Builder() {}

    public Builder register(String servicePath, String method, RpcxService service) {
      services.computeIfAbsent(servicePath, p -> new HashMap<>()).put(method, service);
      return this;
    }

    public Builder maxFrameLength(int bytes) {
      this.maxFrameLength = bytes;
      return this;
    }

    public Builder ioThreads(int threads) {
      if (threads < 1) {
        throw new IllegalArgumentException("rpcx server I/O threads: expected at least 1, got " + threads);
      }
      this.ioThreads = threads;
      return this;
    }

    /** Binds {@code host:port} (port 0: a free one) and starts serving. */
    public RpcxServer start(String host, int port) throws InterruptedException {
      Map<String, Map<String, RpcxService>> frozen = new HashMap<>();
      services.forEach((path, methods) -> frozen.put(path, Map.copyOf(methods)));
      Builder copy = new Builder();
      copy.services.putAll(frozen);
      copy.maxFrameLength = maxFrameLength;
      copy.ioThreads = ioThreads;
      return new RpcxServer(copy, host, port);
    }
  }

  private final class Requests extends SimpleChannelInboundHandler<RpcxMessage> {
    private final Map<String, Map<String, RpcxService>> services;

    Requests(Map<String, Map<String, RpcxService>> services) {
      this.services = services;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, RpcxMessage request) {
      if (request.isHeartbeat()) {
        ctx.writeAndFlush(request.toBuilder().response(true).build());
        return;
      }
      Map<String, RpcxService> methods = services.get(request.servicePath());
      if (methods == null) {
        reply(ctx, request, null, "rpcx: can't find service " + request.servicePath());
        return;
      }
      RpcxService service = methods.get(request.serviceMethod());
      if (service == null) {
        reply(ctx, request, null, "rpcx: can't find method " + request.serviceMethod());
        return;
      }
      CompletableFuture<byte[]> result;
      try {
        result = service.handle(request);
      } catch (Exception | LinkageError e) {
        result = CompletableFuture.failedFuture(e);
      }
      result.whenComplete(
          (payload, error) -> {
            if (error == null) {
              reply(ctx, request, payload, null);
            } else {
              Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
              reply(ctx, request, null, cause.getMessage() == null ? cause.toString() : cause.getMessage());
            }
          });
    }

    private void reply(ChannelHandlerContext ctx, RpcxMessage request, byte[] payload, String error) {
      if (request.isOneway()) {
        return;
      }
      RpcxMessage.Builder reply = request.replyBuilder();
      if (error != null) {
        reply.error(true).putMetadata(RpcxMessage.ERROR_KEY, error);
      } else {
        byte[] body = payload == null ? new byte[0] : payload;
        reply.payload(body);
        if (body.length > 1024 && request.compressType() != CompressType.NONE) {
          reply.compressType(request.compressType());
        }
      }
      ctx.writeAndFlush(reply.build());
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      if (cause instanceof io.netty.handler.codec.DecoderException) {
        malformedFrames.incrementAndGet();
        LOG.debug("rpcx server: closing {}: {}", ctx.channel().remoteAddress(), cause.getMessage());
      } else {
        LOG.debug("rpcx server: closing {}", ctx.channel().remoteAddress(), cause);
      }
      ctx.close();
    }
  }
}
