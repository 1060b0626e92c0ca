package protocols.grpc;

import io.grpc.CallOptions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import io.gatling.javaapi.core.Session;
import protocols.core.HostAndPort;
import protocols.core.ReconnectBackoff;

/**
 * The channel and call options of production clients: more targets balanced by a policy, a client
 * certificate (mutual TLS), keepalive, compression, wait-for-ready and outbound size. Immutable.
 */
record GrpcChannelOptions(
    List<HostAndPort> moreTargets,
    String loadBalancingPolicy,
    String clientCertificateChain,
    String clientPrivateKey,
    Duration keepAliveTime,
    Duration keepAliveTimeout,
    String compression,
    boolean waitForReady,
    int maxOutboundMessageSize,
    List<CallCredentials> callCredentials,
    boolean dns,
    ReconnectBackoff.Settings reconnects) {

  /** Metadata computed from the virtual user's session for every call and stream (an auth token, say). */
  @FunctionalInterface
  interface CallCredentials {
    Map<String, String> headers(Session session);
  }

  static final GrpcChannelOptions DEFAULTS =
      new GrpcChannelOptions(List.of(), "pick_first", null, null, null, null, null, false, 0, List.of(), false, ReconnectBackoff.DEFAULT);

  GrpcChannelOptions withTargets(List<HostAndPort> more, String policy) {
    return new GrpcChannelOptions(List.copyOf(more), policy, clientCertificateChain, clientPrivateKey,
        keepAliveTime, keepAliveTimeout, compression, waitForReady, maxOutboundMessageSize, callCredentials, dns, reconnects);
  }

  /** Whether the target is a DNS name, whose addresses the policy spreads calls over. */
  GrpcChannelOptions withDns(boolean byDns) {
    return new GrpcChannelOptions(byDns ? List.of() : moreTargets, loadBalancingPolicy, clientCertificateChain,
        clientPrivateKey, keepAliveTime, keepAliveTimeout, compression, waitForReady, maxOutboundMessageSize,
        callCredentials, byDns, reconnects);
  }

  GrpcChannelOptions withLoadBalancingPolicy(String policy) {
    return new GrpcChannelOptions(moreTargets, policy, clientCertificateChain, clientPrivateKey,
        keepAliveTime, keepAliveTimeout, compression, waitForReady, maxOutboundMessageSize, callCredentials, dns, reconnects);
  }

  GrpcChannelOptions withClientCertificate(String chain, String key) {
    return new GrpcChannelOptions(moreTargets, loadBalancingPolicy, chain, key,
        keepAliveTime, keepAliveTimeout, compression, waitForReady, maxOutboundMessageSize, callCredentials, dns, reconnects);
  }

  GrpcChannelOptions withKeepAlive(Duration time, Duration timeout) {
    return new GrpcChannelOptions(moreTargets, loadBalancingPolicy, clientCertificateChain, clientPrivateKey,
        time, timeout, compression, waitForReady, maxOutboundMessageSize, callCredentials, dns, reconnects);
  }

  GrpcChannelOptions withCompression(String compressor) {
    return new GrpcChannelOptions(moreTargets, loadBalancingPolicy, clientCertificateChain, clientPrivateKey,
        keepAliveTime, keepAliveTimeout, compressor, waitForReady, maxOutboundMessageSize, callCredentials, dns, reconnects);
  }

  GrpcChannelOptions withWaitForReady(boolean wait) {
    return new GrpcChannelOptions(moreTargets, loadBalancingPolicy, clientCertificateChain, clientPrivateKey,
        keepAliveTime, keepAliveTimeout, compression, wait, maxOutboundMessageSize, callCredentials, dns, reconnects);
  }

  GrpcChannelOptions withMaxOutboundMessageSize(int bytes) {
    return new GrpcChannelOptions(moreTargets, loadBalancingPolicy, clientCertificateChain, clientPrivateKey,
        keepAliveTime, keepAliveTimeout, compression, waitForReady, bytes, callCredentials, dns, reconnects);
  }

  GrpcChannelOptions withCallCredentials(CallCredentials credentials) {
    List<CallCredentials> all = new java.util.ArrayList<>(callCredentials);
    all.add(credentials);
    return new GrpcChannelOptions(moreTargets, loadBalancingPolicy, clientCertificateChain, clientPrivateKey,
        keepAliveTime, keepAliveTimeout, compression, waitForReady, maxOutboundMessageSize, List.copyOf(all), dns, reconnects);
  }

  GrpcChannelOptions withReconnectBackoff(ReconnectBackoff.Settings settings) {
    return new GrpcChannelOptions(moreTargets, loadBalancingPolicy, clientCertificateChain, clientPrivateKey,
        keepAliveTime, keepAliveTimeout, compression, waitForReady, maxOutboundMessageSize, callCredentials, dns,
        settings);
  }

  /** The options of one call: the protocol's, a call's own compression first. */
  CallOptions callOptions(Duration deadline, String callCompression) {
    CallOptions options =
        CallOptions.DEFAULT.withDeadlineAfter(deadline.toNanos(), java.util.concurrent.TimeUnit.NANOSECONDS);
    String compressor = callCompression != null ? callCompression : compression;
    if (compressor != null) {
      options = options.withCompression(compressor);
    }
    if (waitForReady) {
      options = options.withWaitForReady();
    }
    if (maxOutboundMessageSize > 0) {
      options = options.withMaxOutboundMessageSize(maxOutboundMessageSize);
    }
    return options;
  }
}
