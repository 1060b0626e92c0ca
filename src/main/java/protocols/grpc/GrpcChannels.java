package protocols.grpc;

import io.netty.util.concurrent.DefaultThreadFactory;
import io.grpc.ManagedChannel;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.File;
import java.util.ArrayList;
import java.util.List;
import protocols.core.HostAndPort;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import protocols.core.ClientFactory;
import protocols.core.ClientIo;

/** Opens the channels of a {@link GrpcProtocol}. */
final class GrpcChannels implements ClientFactory<GrpcProtocol, ManagedChannel> {

  private static final Executor OFFLOAD =
      Executors.newFixedThreadPool(
          2,
          new DefaultThreadFactory("grpc-channel-offload", true));

  @Override
  public ManagedChannel open(GrpcProtocol protocol, ClientIo io) throws Exception {
    NettyChannelBuilder builder =
        address(protocol)
            .maxInboundMessageSize(protocol.maxInboundMessageSize)
            // the channel's I/O on Gatling's loop, its callbacks on the I/O thread: a call sent by a
            // virtual user is written, answered and checked on that user's thread, with no hop
            .eventLoopGroup(io.eventLoop())
            .channelFactory(io.socketChannels())
            .directExecutor()
            // name resolution and the like: bounded, or 5000 channels opening at once grow gRPC's
            // cached thread pool with the users
            .offloadExecutor(OFFLOAD);
    return new WatchedChannel(security(builder, protocol).build(), protocol.target.toString(), !protocol.options.waitForReady());
  }

  /** A channel of grpc-netty's own, for reading the server's reflection before the load starts. */
  static ManagedChannel reflectionChannel(GrpcProtocol protocol) throws Exception {
    return security(
            NettyChannelBuilder.forAddress(protocol.target.host(), protocol.target.port())
                .maxInboundMessageSize(Integer.MAX_VALUE)
                .offloadExecutor(OFFLOAD),
            protocol)
        .build();
  }

  /** One server, a dns name, or several servers behind the load-balancing policy (a static name resolver lists them). */
  @SuppressWarnings("deprecation") // nameResolverFactory: the way to give a channel its own resolver
  private static NettyChannelBuilder address(GrpcProtocol protocol) {
    GrpcChannelOptions options = protocol.options;
    if (options.dns()) {
      // grpc-java's own dns resolver: every address of the name, re-resolved when connections fail
      return NettyChannelBuilder.forTarget("dns:///" + protocol.target)
          .defaultLoadBalancingPolicy(options.loadBalancingPolicy());
    }
    if (options.moreTargets().isEmpty()) {
      return NettyChannelBuilder.forAddress(protocol.target.host(), protocol.target.port());
    }
    List<HostAndPort> all = new ArrayList<>();
    all.add(protocol.target);
    all.addAll(options.moreTargets());
    return NettyChannelBuilder.forTarget(StaticTargets.SCHEME + ":///" + protocol.target)
        .nameResolverFactory(new StaticTargets(all))
        .defaultLoadBalancingPolicy(options.loadBalancingPolicy());
  }

  private static NettyChannelBuilder security(NettyChannelBuilder builder, GrpcProtocol protocol)
      throws Exception {
    GrpcChannelOptions options = protocol.options;
    if (protocol.trustedCaFile == null) {
      builder.usePlaintext();
    } else {
      SslContextBuilder ssl = GrpcSslContexts.forClient().trustManager(new File(protocol.trustedCaFile));
      if (options.clientCertificateChain() != null) {
        ssl.keyManager(new File(options.clientCertificateChain()), new File(options.clientPrivateKey()));
      }
      builder.sslContext(ssl.build());
    }
    if (options.keepAliveTime() != null) {
      builder
          .keepAliveTime(options.keepAliveTime().toNanos(), TimeUnit.NANOSECONDS)
          .keepAliveTimeout(options.keepAliveTimeout().toNanos(), TimeUnit.NANOSECONDS);
    }
    if (protocol.authority != null) {
      builder.overrideAuthority(protocol.authority);
    }
    return builder;
  }

  @Override
  public boolean isUsable(ManagedChannel channel) {
    return ((WatchedChannel) channel).usable();
  }

  @Override
  public Throwable failedBeforeAnswering(ManagedChannel channel) {
    return ((WatchedChannel) channel).failedBeforeReady();
  }

  /** A channel that was ready once has had the server's HTTP/2 settings: the target is back. */
  @Override
  public boolean answered(ManagedChannel channel) {
    return ((WatchedChannel) channel).wasReady();
  }

  @Override
  public void close(ManagedChannel channel) throws InterruptedException {
    if (((WatchedChannel) channel).lost()) {
      // it shuts down gracefully by itself: it ends with its last call in flight after a GOAWAY (answered,
      // past its deadline, or cancelled when its user ends), which shutdownNow() would cut short
      return;
    }
    channel.shutdownNow().awaitTermination(1, TimeUnit.SECONDS);
  }
}
