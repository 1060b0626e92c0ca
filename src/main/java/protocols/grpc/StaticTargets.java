package protocols.grpc;

import io.grpc.Attributes;
import io.grpc.EquivalentAddressGroup;
import io.grpc.NameResolver;
import io.grpc.Status;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import protocols.core.HostAndPort;

/** Resolves a channel to a fixed list of servers, for a load-balancing policy to spread calls over. */
final class StaticTargets extends NameResolver.Factory {

  static final String SCHEME = "gatling-static";

  private final List<HostAndPort> targets;

  StaticTargets(List<HostAndPort> targets) {
    this.targets = List.copyOf(targets);
  }

  @Override
  public NameResolver newNameResolver(URI targetUri, NameResolver.Args args) {
    if (!SCHEME.equals(targetUri.getScheme())) {
      return null;
    }
    return new NameResolver() {
      @Override
      public String getServiceAuthority() {
        return targets.get(0).host();
      }

      @Override
      public void start(Listener2 listener) {
        List<EquivalentAddressGroup> groups = new ArrayList<>();
        for (HostAndPort target : targets) {
          groups.add(new EquivalentAddressGroup(new InetSocketAddress(target.host(), target.port())));
        }
        listener.onResult(
            ResolutionResult.newBuilder().setAddressesOrError(io.grpc.StatusOr.fromValue(groups)).setAttributes(Attributes.EMPTY).build());
      }

      @Override
      public void shutdown() {}
    };
  }

  @Override
  public String getDefaultScheme() {
    return SCHEME;
  }
}
