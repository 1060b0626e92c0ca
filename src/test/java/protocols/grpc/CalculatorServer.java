package protocols.grpc;

import calculator.pb.CalculatorGrpc;
import calculator.pb.CounterGrpc;
import calculator.pb.Operands;
import calculator.pb.Result;
import com.google.protobuf.ByteString;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.Status;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.io.File;
import java.net.InetSocketAddress;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.netty.handler.ssl.ClientAuth;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContext;

/** A real gRPC server of a service that has nothing to do with the benchmark. */
final class CalculatorServer implements AutoCloseable {

  private static final Metadata.Key<String> TENANT =
      Metadata.Key.of("x-tenant", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> ENCODING =
      Metadata.Key.of("grpc-encoding", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> AUTHORIZATION =
      Metadata.Key.of("authorization", Metadata.ASCII_STRING_MARSHALLER);
  private static final Context.Key<String> TENANT_IN_CONTEXT = Context.key("tenant");

  private final Server server;
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();

  /** Calls received, and the grpc-encoding (compression) of the last one. */
  final AtomicInteger calls = new AtomicInteger();
  volatile String lastEncoding;
  /** Calls without exactly this authorization header are refused UNAUTHENTICATED; null: none needed. */
  private volatile String requiredAuthorization;

  private CalculatorServer(boolean tls) throws Exception {
    this(tls ? GrpcSslContexts.forServer(resource("tls/server.pem"), resource("tls/server.key")).build() : null);
  }

  private CalculatorServer(SslContext tls) throws Exception {
    this(tls, new InetSocketAddress("127.0.0.1", 0));
  }

  private CalculatorServer(SslContext tls, InetSocketAddress address) throws Exception {
    NettyServerBuilder builder =
        NettyServerBuilder.forAddress(address)
            .addService(ServerInterceptors.intercept(new Calculator(), new TenantInterceptor()))
            .addService(ServerInterceptors.intercept(new Counter(), new TenantInterceptor()));
    if (tls != null) {
      builder.sslContext(tls);
    }
    server = builder.build().start();
  }

  /** A server that demands a client certificate signed by {@code ca}. */
  static CalculatorServer mutualTls(File certificate, File key, File ca) throws Exception {
    return new CalculatorServer(
        GrpcSslContexts.forServer(certificate, key).trustManager(ca).clientAuth(ClientAuth.REQUIRE).build());
  }

  /** A plaintext server on a given address and port (two replicas on one port, say). */
  static CalculatorServer plaintext(String host, int port) throws Exception {
    return new CalculatorServer(null, new InetSocketAddress(host, port));
  }

  static CalculatorServer plaintext() throws Exception {
    return new CalculatorServer(false);
  }

  /** A server that answers only calls whose {@code authorization} header is {@code authorization}. */
  static CalculatorServer requiringAuthorization(String authorization) throws Exception {
    CalculatorServer server = new CalculatorServer(false);
    server.requiredAuthorization = authorization;
    return server;
  }

  static CalculatorServer tls() throws Exception {
    return new CalculatorServer(true);
  }

  static File resource(String name) {
    return new File(CalculatorServer.class.getClassLoader().getResource(name).getFile());
  }

  int port() {
    return server.getPort();
  }

  String target() {
    return "127.0.0.1:" + server.getPort();
  }

  @Override
  public void close() throws InterruptedException {
    server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    timer.shutdownNow();
  }

  private final class Calculator extends CalculatorGrpc.CalculatorImplBase {
    @Override
    public void add(Operands request, StreamObserver<Result> responses) {
      answer(request, request.getA() + request.getB(), responses);
    }

    @Override
    public void divide(Operands request, StreamObserver<Result> responses) {
      if (request.getB() == 0) {
        responses.onError(Status.INVALID_ARGUMENT.withDescription("division by zero").asRuntimeException());
        return;
      }
      answer(request, request.getA() / request.getB(), responses);
    }

    private void answer(Operands request, long value, StreamObserver<Result> responses) {
      Result result =
          Result.newBuilder()
              .setValue(value)
              .setTenant(String.valueOf(TENANT_IN_CONTEXT.get()))
              .setPadding(ByteString.copyFrom(new byte[request.getPadding()]))
              .build();
      timer.schedule(
          () -> {
            responses.onNext(result);
            responses.onCompleted();
          },
          request.getDelayMillis(),
          TimeUnit.MILLISECONDS);
    }
  }

  /** Count(a): the values 1 to a, one message each. */
  private static final class Counter extends CounterGrpc.CounterImplBase {
    @Override
    public void count(Operands request, StreamObserver<Result> responses) {
      for (long i = 1; i <= request.getA(); i++) {
        responses.onNext(Result.newBuilder().setValue(i).build());
      }
      responses.onCompleted();
    }
  }

  private final class TenantInterceptor implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
        ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
      calls.incrementAndGet();
      lastEncoding = headers.get(ENCODING);
      String required = requiredAuthorization;
      if (required != null && !required.equals(headers.get(AUTHORIZATION))) {
        call.close(
            Status.UNAUTHENTICATED.withDescription("expected authorization '" + required + "', got '" + headers.get(AUTHORIZATION) + "'"),
            new Metadata());
        return new ServerCall.Listener<>() {};
      }
      Iterable<String> tenants = headers.getAll(TENANT);
      String tenant = tenants == null ? null : String.join(",", tenants);
      return Contexts.interceptCall(Context.current().withValue(TENANT_IN_CONTEXT, tenant), call, headers, next);
    }
  }
}
