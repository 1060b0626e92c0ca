package protocols.grpc;

import io.grpc.ManagedChannel;
import io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.NettyChannelBuilder;
import java.io.File;
import java.util.concurrent.TimeUnit;
import protocols.core.ClientFactory;
import protocols.core.ClientIo;

/** Opens the channels of a {@link GrpcProtocol}. */
final class GrpcChannels implements ClientFactory<GrpcProtocol, ManagedChannel> {

  @Override
  public ManagedChannel open(GrpcProtocol protocol, ClientIo io) throws Exception {
    NettyChannelBuilder builder =
        NettyChannelBuilder.forAddress(protocol.target.host(), protocol.target.port())
            .maxInboundMessageSize(protocol.maxInboundMessageSize)
            // the channel's I/O on Gatling's loop, its callbacks on the I/O thread: a call sent by a
            // virtual user is written, answered and checked on that user's thread, with no hop
            .eventLoopGroup(io.eventLoop())
            .channelFactory(io.socketChannels())
            .directExecutor();
    if (protocol.trustedCaFile == null) {
      builder.usePlaintext();
    } else {
      builder.sslContext(
          GrpcSslContexts.forClient().trustManager(new File(protocol.trustedCaFile)).build());
    }
    if (protocol.authority != null) {
      builder.overrideAuthority(protocol.authority);
    }
    return builder.build();
  }

  @Override
  public void close(ManagedChannel channel) throws InterruptedException {
    channel.shutdownNow().awaitTermination(1, TimeUnit.SECONDS);
  }
}
