package protocols.grpc;

import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.javaapi.core.ProtocolBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.core.internal.Expressions;
import java.io.File;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import protocols.core.ConnectionModel;
import protocols.core.HostAndPort;
import protocols.core.ReconnectBackoff;

/**
 * {@code grpc.target("localhost:50051").sharedChannels(4).deadline(Duration.ofSeconds(5))}: where and
 * how a simulation's gRPC calls go. Immutable; every method returns a new builder.
 */
public final class GrpcProtocolBuilder implements ProtocolBuilder {

  public static final Duration DEFAULT_DEADLINE = Duration.ofSeconds(10);
  public static final int DEFAULT_MAX_INBOUND_MESSAGE_SIZE = 4 * 1024 * 1024;

  private final HostAndPort target;
  private final String trustedCaFile;
  private final String authority;
  private final ConnectionModel connections;
  private final Duration deadline;
  private final int maxInboundMessageSize;
  private final Map<String, String> headers;
  private final GrpcSchema schema;
  private final GrpcChannelOptions options;

  GrpcProtocolBuilder() {
    this(
        null,
        null,
        null,
        ConnectionModel.shared(1),
        DEFAULT_DEADLINE,
        DEFAULT_MAX_INBOUND_MESSAGE_SIZE,
        Map.of(),
        null,
        GrpcChannelOptions.DEFAULTS);
  }

  private GrpcProtocolBuilder(
      HostAndPort target,
      String trustedCaFile,
      String authority,
      ConnectionModel connections,
      Duration deadline,
      int maxInboundMessageSize,
      Map<String, String> headers,
      GrpcSchema schema,
      GrpcChannelOptions options) {
    this.target = target;
    this.trustedCaFile = trustedCaFile;
    this.authority = authority;
    this.connections = connections;
    this.deadline = deadline;
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.headers = headers;
    this.schema = schema;
    this.options = options;
  }

  /**
   * The server, as {@code host:port}; or {@code dns:///name:port}: every address the name resolves
   * to, spread over by the {@link #loadBalancing load-balancing policy}.
   */
  public GrpcProtocolBuilder target(String hostAndPort) {
    boolean dns = hostAndPort != null && hostAndPort.startsWith(DNS);
    String address = dns ? hostAndPort.substring(DNS.length()) : hostAndPort;
    return target(HostAndPort.parse(address, "grpc.target")).withOptions(options.withDns(dns));
  }

  private static final String DNS = "dns:///";

  public GrpcProtocolBuilder target(HostAndPort target) {
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, connections, deadline, maxInboundMessageSize, headers, schema, options);
  }

  /** Plaintext HTTP/2 (the default). */
  public GrpcProtocolBuilder plaintext() {
    return new GrpcProtocolBuilder(
        target, null, authority, connections, deadline, maxInboundMessageSize, headers, schema, options);
  }

  /** TLS, trusting the certificate authorities of a PEM file. */
  public GrpcProtocolBuilder tls(String trustedCaPemFile) {
    if (trustedCaPemFile == null || !new File(trustedCaPemFile).canRead()) {
      throw new IllegalArgumentException(
          "grpc.tls: expected a readable PEM file of trusted CA certificates, got " + trustedCaPemFile);
    }
    return new GrpcProtocolBuilder(
        target, trustedCaPemFile, authority, connections, deadline, maxInboundMessageSize, headers, schema, options);
  }

  /** The authority (TLS host name) to ask for, when it is not the target's host. */
  public GrpcProtocolBuilder overrideAuthority(String authority) {
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, connections, deadline, maxInboundMessageSize, headers, schema, options);
  }

  /** {@code count} channels (each its own HTTP/2 connection) shared round-robin by all users. */
  public GrpcProtocolBuilder sharedChannels(int count) {
    return connections(ConnectionModel.shared(count));
  }

  /** One channel per virtual user, opened on its first call and closed when it exits. */
  public GrpcProtocolBuilder channelPerUser() {
    return connections(ConnectionModel.perUser());
  }

  public GrpcProtocolBuilder connections(ConnectionModel model) {
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, model, deadline, maxInboundMessageSize, headers, schema, options);
  }

  /** The deadline of calls that set none. */
  public GrpcProtocolBuilder deadline(Duration deadline) {
    if (deadline == null || deadline.isNegative() || deadline.isZero()) {
      throw new IllegalArgumentException("grpc.deadline: expected a positive duration, got " + deadline);
    }
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, connections, deadline, maxInboundMessageSize, headers, schema, options);
  }

  public GrpcProtocolBuilder maxInboundMessageSize(int bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException(
          "grpc.maxInboundMessageSize: expected a positive number of bytes, got " + bytes);
    }
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, connections, deadline, bytes, headers, schema, options);
  }

  /** Metadata sent with every call (ASCII keys; a key ending in {@code -bin} is not supported). */
  public GrpcProtocolBuilder header(String key, String value) {
    GrpcHeaders.key(key); // validates
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.put(key, value);
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, connections, deadline, maxInboundMessageSize, Map.copyOf(all), schema, options);
  }

  /**
   * Methods called by name ({@code grpc("say").method("helloworld.Greeter/SayHello")}) take their
   * schema from the server's reflection service (v1, else v1alpha), read once when the simulation
   * starts.
   */
  public GrpcProtocolBuilder reflection() {
    return withSchema(GrpcSchema.reflection());
  }

  /** Methods called by name take their schema from a descriptor set ({@code protoc --include_imports --descriptor_set_out=x.protoset}). */
  public GrpcProtocolBuilder descriptorSet(String protosetFile) {
    if (protosetFile == null || protosetFile.isBlank()) {
      throw new IllegalArgumentException("grpc.descriptorSet: expected the path of a descriptor set file, got " + protosetFile);
    }
    return withSchema(GrpcSchema.descriptorSet(protosetFile));
  }

  /**
   * Methods called by name take their schema from {@code .proto} files, compiled when the simulation
   * starts by the {@code protoc} Maven already holds. Without {@link #protoPath}, each file's own
   * directory is its import root; with it, the files are named relative to those directories.
   */
  public GrpcProtocolBuilder protoFiles(String... files) {
    if (files.length == 0) {
      throw new IllegalArgumentException("grpc.protoFiles: expected at least one .proto file");
    }
    List<String> paths = schema != null && schema.kind() == GrpcSchema.Kind.PROTO_FILES ? schema.protoPaths() : List.of();
    return withSchema(GrpcSchema.protoFiles(List.of(files), paths));
  }

  /** The directories that {@link #protoFiles} and their imports are found in. */
  public GrpcProtocolBuilder protoPath(String... directories) {
    if (schema == null || schema.kind() != GrpcSchema.Kind.PROTO_FILES) {
      throw new IllegalStateException("grpc.protoPath: give the files first with .protoFiles(...)");
    }
    List<String> all = new ArrayList<>(schema.protoPaths());
    all.addAll(List.of(directories));
    return withSchema(schema.withProtoPaths(all));
  }

  private GrpcProtocolBuilder withSchema(GrpcSchema schema) {
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, connections, deadline, maxInboundMessageSize, headers, schema, options);
  }

  /**
   * Several servers, replicas of one service: each channel connects to all of them and spreads its
   * calls by {@code loadBalancingPolicy} ({@code "round_robin"}, or {@code "pick_first"}).
   */
  public GrpcProtocolBuilder targets(String loadBalancingPolicy, String... hostsAndPorts) {
    if (hostsAndPorts.length == 0) {
      throw new IllegalArgumentException("grpc.targets: expected at least one host:port");
    }
    requirePolicy(loadBalancingPolicy, "grpc.targets");
    if (hostsAndPorts[0] != null && hostsAndPorts[0].startsWith(DNS)) {
      if (hostsAndPorts.length > 1) {
        throw new IllegalArgumentException(
            "grpc.targets: a dns:/// name stands for all its addresses: give it alone, got " + List.of(hostsAndPorts));
      }
      return target(hostsAndPorts[0]).loadBalancing(loadBalancingPolicy);
    }
    List<HostAndPort> more = new ArrayList<>();
    for (int i = 1; i < hostsAndPorts.length; i++) {
      more.add(HostAndPort.parse(hostsAndPorts[i], "grpc.targets"));
    }
    return target(hostsAndPorts[0]).withOptions(options.withTargets(more, loadBalancingPolicy));
  }

  /**
   * How a channel spreads its calls over the addresses of its target ({@code "round_robin"}, or
   * {@code "pick_first"}, the default): those of a {@code dns:///} name, or of {@link #targets}.
   */
  public GrpcProtocolBuilder loadBalancing(String loadBalancingPolicy) {
    requirePolicy(loadBalancingPolicy, "grpc.loadBalancing");
    return withOptions(options.withLoadBalancingPolicy(loadBalancingPolicy));
  }

  private static void requirePolicy(String policy, String where) {
    if (!List.of("round_robin", "pick_first").contains(policy)) {
      throw new IllegalArgumentException(
          where + ": expected the load-balancing policy round_robin or pick_first, got " + policy);
    }
  }

  /** Mutual TLS: the client's certificate chain and its PKCS#8 private key, PEM files; needs {@link #tls}. */
  public GrpcProtocolBuilder clientCertificate(String certificateChainPemFile, String privateKeyPemFile) {
    for (String file : new String[] {certificateChainPemFile, privateKeyPemFile}) {
      if (file == null || !new File(file).canRead()) {
        throw new IllegalArgumentException("grpc.clientCertificate: expected a readable PEM file, got " + file);
      }
    }
    return withOptions(options.withClientCertificate(certificateChainPemFile, privateKeyPemFile));
  }

  /** HTTP/2 pings every {@code time} on an idle connection; no answer within {@code timeout} closes it. */
  public GrpcProtocolBuilder keepAlive(Duration time, Duration timeout) {
    if (time == null || timeout == null || time.isNegative() || time.isZero() || timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("grpc.keepAlive: expected positive durations, got " + time + ", " + timeout);
    }
    return withOptions(options.withKeepAlive(time, timeout));
  }

  /** Compresses every request with {@code "gzip"} (or {@code "identity"}: none); a call may choose its own. */
  public GrpcProtocolBuilder compression(String compressor) {
    return withOptions(options.withCompression(GrpcCompression.require(compressor, "grpc.compression")));
  }

  /** Calls wait for the channel to be ready (the server to come up) instead of failing at once, within their deadline. */
  public GrpcProtocolBuilder waitForReady() {
    return withOptions(options.withWaitForReady(true));
  }

  /**
   * How long to wait before a new channel may connect to a target that refused or dropped a channel
   * before it was ever ready: {@code firstDelay}, doubled at every further failure up to {@code
   * maxDelay}, with jitter; meanwhile calls are RECONNECTING KOs at once (default 100 ms up to 5 s; see
   * docs/grpc.md). It replaces grpc-java's own per-channel backoff, which cannot be configured.
   */
  public GrpcProtocolBuilder reconnectBackoff(Duration firstDelay, Duration maxDelay) {
    return withOptions(options.withReconnectBackoff(ReconnectBackoff.Settings.of("grpc.reconnectBackoff", firstDelay, maxDelay)));
  }

  /** Larger requests fail with {@code RESOURCE_EXHAUSTED} before they are sent. */
  public GrpcProtocolBuilder maxOutboundMessageSize(int bytes) {
    if (bytes < 1) {
      throw new IllegalArgumentException("grpc.maxOutboundMessageSize: expected a positive number of bytes, got " + bytes);
    }
    return withOptions(options.withMaxOutboundMessageSize(bytes));
  }

  /**
   * Metadata computed from the virtual user's session for every call and stream, such as {@code
   * session -> Map.of("authorization", "Bearer " + session.getString("token"))}; several add up.
   */
  public GrpcProtocolBuilder callCredentials(Function<Session, Map<String, String>> headers) {
    if (headers == null) {
      throw new IllegalArgumentException("grpc.callCredentials: expected a function of the session, got null");
    }
    return withOptions(options.withCallCredentials(headers::apply));
  }

  /** {@code authorization: Bearer <token>} on every call and stream; the token may use Gatling EL ({@code "#{token}"}). */
  public GrpcProtocolBuilder bearerToken(String token) {
    if (token == null || token.isBlank()) {
      throw new IllegalArgumentException("grpc.bearerToken: expected a token or a Gatling EL such as \"#{token}\", got " + token);
    }
    var expression = Expressions.toStringExpression(token);
    return callCredentials(
        session -> {
          Validation<String> value = expression.apply(session.asScala());
          if (((Object) value) instanceof Failure failure) {
            throw new IllegalArgumentException("grpc.bearerToken could not be resolved: " + failure.message());
          }
          return Map.of("authorization", "Bearer " + ((Success<String>) value).value());
        });
  }

  private GrpcProtocolBuilder withOptions(GrpcChannelOptions options) {
    return new GrpcProtocolBuilder(
        target, trustedCaFile, authority, connections, deadline, maxInboundMessageSize, headers, schema, options);
  }

  @Override
  public GrpcProtocol protocol() {
    if (options.clientCertificateChain() != null && trustedCaFile == null) {
      throw new IllegalStateException("grpc.clientCertificate: mutual TLS needs .tls(\"ca.pem\") too");
    }
    if (target == null) {
      throw new IllegalStateException("grpc: no target: add .target(\"host:port\")");
    }
    return new GrpcProtocol(
        target, trustedCaFile, authority, connections, deadline, maxInboundMessageSize, headers, schema, options);
  }

}
