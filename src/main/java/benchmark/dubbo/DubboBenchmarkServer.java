package benchmark.dubbo;

import benchmark.BenchmarkMessages;
import benchmark.BenchmarkServer;
import protocols.core.Durations;
import benchmark.ServerArgs;
import benchmark.ServiceTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.dubbo.common.URL;
import org.apache.dubbo.config.ApplicationConfig;
import org.apache.dubbo.config.ProtocolConfig;
import org.apache.dubbo.config.RegistryConfig;
import org.apache.dubbo.config.ServiceConfig;
import org.apache.dubbo.config.bootstrap.DubboBootstrap;
import org.apache.dubbo.rpc.AsyncContext;
import org.apache.dubbo.rpc.RpcContext;
import org.apache.dubbo.rpc.model.FrameworkModel;
import protocols.dubbo.DubboDiscovery;
import protocols.dubbo.DubboSetup;

/**
 * The seed's Dubbo provider: {@link DubboBenchmarkService#say} answers the protobuf-encoded message with
 * field1 "OK" and field2 100, after an optional service time that runs on a timer, never on a Dubbo
 * thread.
 *
 * <p>Requests are answered on Dubbo's I/O threads (dispatcher {@code direct}). It runs in its own Dubbo
 * {@link FrameworkModel}, so it shares nothing with a consumer in the same JVM
 * (the Gatling run that embeds it) and {@link #close} leaves nothing behind.
 *
 * <p>As its own process: {@code mvn -q compile exec:java -Dexec.mainClass=benchmark.dubbo.DubboBenchmarkServer
 * -Dexec.args="--port 20880 [--service-time 0] [--protocol dubbo|tri] [--registry zookeeper://host:2181]
 * [--discovery interface|application|application-first]"}.
 */
public final class DubboBenchmarkServer implements BenchmarkServer {

  public static final int DEFAULT_PORT = 20880;

  private final FrameworkModel framework;
  private final int port;

  private DubboBenchmarkServer(FrameworkModel framework, int port) {
    this.framework = framework;
    this.port = port;
  }

  /** The provider on {@code host:port} over the {@code dubbo} protocol, without a registry. */
  public static DubboBenchmarkServer start(String host, int port, Duration serviceTime) {
    return start(host, port, serviceTime, "dubbo", null);
  }

  /**
   * The provider on {@code host:port} (port 0: a free one) over {@code protocol} ({@code dubbo} or
   * {@code tri}), registered in {@code registry} ({@code zookeeper://host:port}) unless it is null.
   *
   * @throws IllegalStateException with one readable line when Dubbo cannot start (port in use,
   *     registry unreachable)
   */
  public static DubboBenchmarkServer start(
      String host, int port, Duration serviceTime, String protocol, String registry) {
    return start(host, port, serviceTime, protocol, registry, DubboDiscovery.INTERFACE);
  }

  /** As above, registered as {@code discovery} says: per interface, per application instance, or both. */
  public static DubboBenchmarkServer start(
      String host, int port, Duration serviceTime, String protocol, String registry, DubboDiscovery discovery) {
    DubboSetup.quietLogging();
    String where = protocol + "://" + host + ":" + port
        + (registry == null ? "" : " registered in " + registry + " (" + discovery + " discovery)");
    FrameworkModel framework = new FrameworkModel();
    try {
      ApplicationConfig application = new ApplicationConfig("gatling-rpc-benchmark-provider");
      application.setQosEnable(false);
      application.setRegisterMode(discovery.registerMode());
      application.setShutwait("1000");
      DubboSetup.stayOnLoopbackFor(host);
      ProtocolConfig listen = new ProtocolConfig(protocol, port == 0 ? DubboSetup.freePort(host) : port);
      listen.setHost(host);
      // say does no blocking work (the service time runs on a timer), so it runs on the I/O thread that
      // read the request, as the gRPC server's directExecutor; Dubbo's default hand-off to a pool of 200
      // threads with no queue rejects calls in bursts ("thread pool is EXHAUSTED") at thousands of users
      listen.setDispatcher("direct");
      ServiceConfig<DubboBenchmarkService> service = new ServiceConfig<>();
      service.setInterface(DubboBenchmarkService.class);
      service.setRef(new Provider(serviceTime));
      DubboBootstrap.newInstance(framework)
          .application(application)
          .registry(registry == null ? new RegistryConfig(RegistryConfig.NO_AVAILABLE) : DubboSetup.registry(registry, Duration.ofSeconds(5), discovery))
          .protocol(listen)
          .service(service)
          .start();
      List<URL> exported = new ArrayList<>(service.getExportedUrls());
      if (exported.isEmpty()) {
        throw new IllegalStateException("the service was not exported");
      }
      return new DubboBenchmarkServer(framework, exported.get(0).getPort());
    } catch (RuntimeException e) {
      destroyQuietly(framework);
      throw new IllegalStateException("Dubbo provider " + where + " did not start: " + DubboSetup.startupCause(e));
    }
  }

  @Override
  public int port() {
    return port;
  }

  @Override
  public void close() {
    destroyQuietly(framework);
  }

  private static void destroyQuietly(FrameworkModel framework) {
    try {
      framework.destroy();
    } catch (RuntimeException e) {
      // already half torn down by a failed start: nothing more to release
    }
  }

  /** Answers {@code say} and {@code sayAsync}; neither holds a thread for the service time. */
  static final class Provider implements DubboBenchmarkService {
    private final Duration serviceTime;

    Provider(Duration serviceTime) {
      this.serviceTime = serviceTime;
    }

    @Override
    public byte[] say(byte[] message) {
      byte[] reply = reply(message);
      if (ServiceTime.immediate(serviceTime)) {
        return reply;
      }
      AsyncContext async = RpcContext.startAsync();
      ServiceTime.after(serviceTime, () -> async.write(reply));
      return null;
    }

    @Override
    public CompletableFuture<byte[]> sayAsync(byte[] message) {
      CompletableFuture<byte[]> reply = new CompletableFuture<>();
      byte[] answer = reply(message);
      ServiceTime.after(serviceTime, () -> reply.complete(answer));
      return reply;
    }

    private static byte[] reply(byte[] message) {
      if (message == null) {
        throw new IllegalArgumentException("expected an encoded BenchmarkMessage, got null");
      }
      try {
        return BenchmarkMessages.reply(message);
      } catch (IllegalArgumentException e) {
        // without its protobuf cause, which the consumer's serialization allow-list would refuse
        throw new IllegalArgumentException(e.getMessage());
      }
    }
  }

  public static void main(String[] args) throws Exception {
    DubboSetup.quietConsoleLogging();
    Map<String, String> dubboOptions = new java.util.HashMap<>(Map.of("--protocol", "dubbo"));
    List<String> common = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      if ((args[i].equals("--protocol") || args[i].equals("--registry") || args[i].equals("--discovery"))
          && i + 1 < args.length) {
        dubboOptions.put(args[i], args[++i]);
      } else {
        common.add(args[i]);
      }
    }
    ServerArgs options = ServerArgs.parseOrExit(common.toArray(String[]::new), DEFAULT_PORT);
    String protocol = DubboSetup.protocolName(dubboOptions.get("--protocol"), "--protocol");
    String registry = dubboOptions.get("--registry");
    if (registry != null) {
      DubboSetup.registryAddress(registry, "--registry");
    }
    DubboDiscovery discovery =
        DubboDiscovery.parse(dubboOptions.getOrDefault("--discovery", "interface"), "--discovery");
    DubboBenchmarkServer server;
    try {
      server = start(options.host(), options.port(), options.serviceTime(), protocol, registry, discovery);
    } catch (IllegalStateException e) {
      System.err.println(e.getMessage());
      System.exit(1);
      return;
    }
    BenchmarkServer.serveUntilStopped(
        server,
        "Dubbo benchmark provider listening on "
            + protocol
            + "://"
            + options.host()
            + ":"
            + server.port()
            + (registry == null ? "" : ", registered in " + registry + " (" + discovery + " discovery)")
            + " (service time "
            + Durations.format(options.serviceTime())
            + ")");
  }
}
