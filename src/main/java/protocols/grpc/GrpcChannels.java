package protocols.grpc;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.io.File;
import java.util.concurrent.TimeUnit;
import protocols.core.ClientFactory;

/** Opens the channels of a {@link GrpcProtocol}. */
final class GrpcChannels implements ClientFactory<GrpcProtocol, ManagedChannel> {

  @Override
  public ManagedChannel open(GrpcProtocol protocol) throws Exception {
    NettyChannelBuilder builder =
        NettyChannelBuilder.forAddress(protocol.target.host(), protocol.target.port())
            .maxInboundMessageSize(protocol.maxInboundMessageSize)
            // responses are handed straight to the virtual user's event loop: no executor hop
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
