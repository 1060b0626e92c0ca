package protocols.grpc;

import com.google.protobuf.ByteString;
import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.Descriptors.FileDescriptor;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.reflection.v1.ServerReflectionGrpc;
import io.grpc.reflection.v1.ServerReflectionRequest;
import io.grpc.reflection.v1.ServerReflectionResponse;
import io.grpc.reflection.v1.ServiceResponse;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Reads a server's schema through its reflection service: {@code grpc.reflection.v1}, or
 * {@code v1alpha} when the server only has that (its messages are the same on the wire, so the v1
 * classes serve both).
 */
final class ServerReflection {

  private static final MethodDescriptor<ServerReflectionRequest, ServerReflectionResponse> V1 =
      ServerReflectionGrpc.getServerReflectionInfoMethod();
  private static final MethodDescriptor<ServerReflectionRequest, ServerReflectionResponse> V1ALPHA =
      V1.toBuilder()
          .setFullMethodName(
              MethodDescriptor.generateFullMethodName(
                  "grpc.reflection.v1alpha.ServerReflection", "ServerReflectionInfo"))
          .build();

  private ServerReflection() {}

  static List<FileDescriptor> files(GrpcProtocol protocol) throws IOException, InterruptedException {
    ManagedChannel channel;
    try {
      channel = GrpcChannels.reflectionChannel(protocol);
    } catch (Exception e) {
      throw new IOException("grpc.reflection(): cannot open a channel to " + protocol.target + ": " + e, e);
    }
    try {
      try {
        return files(channel, V1, protocol);
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() != Status.Code.UNIMPLEMENTED) {
          throw failure(protocol, e);
        }
      }
      try {
        return files(channel, V1ALPHA, protocol);
      } catch (StatusRuntimeException e) {
        if (e.getStatus().getCode() == Status.Code.UNIMPLEMENTED) {
          throw new IOException(
              "grpc.reflection(): the server at " + protocol.target
                  + " has no reflection service (neither grpc.reflection.v1 nor v1alpha: UNIMPLEMENTED);"
                  + " enable it on the server, or give the schema with .descriptorSet(...) or .protoFiles(...)");
        }
        throw failure(protocol, e);
      }
    } finally {
      channel.shutdownNow().awaitTermination(1, TimeUnit.SECONDS);
    }
  }

  private static IOException failure(GrpcProtocol protocol, StatusRuntimeException e) {
    return new IOException(
        "grpc.reflection(): asking " + protocol.target + " for its services failed: "
            + GrpcFailures.describe(e).message(), e);
  }

  private static List<FileDescriptor> files(
      ManagedChannel channel,
      MethodDescriptor<ServerReflectionRequest, ServerReflectionResponse> method,
      GrpcProtocol protocol)
      throws IOException, InterruptedException {
    Exchange exchange = new Exchange(channel, method, protocol);
    try {
      Map<String, FileDescriptorProto> files = new LinkedHashMap<>();
      Deque<String> missing = new ArrayDeque<>();
      ServerReflectionResponse services =
          exchange.ask(ServerReflectionRequest.newBuilder().setListServices("").build());
      for (ServiceResponse service : services.getListServicesResponse().getServiceList()) {
        if (service.getName().startsWith("grpc.reflection.")) {
          continue;
        }
        add(exchange.ask(ServerReflectionRequest.newBuilder().setFileContainingSymbol(service.getName()).build()),
            files, missing);
      }
      while (!missing.isEmpty()) {
        String name = missing.pop();
        if (!files.containsKey(name)) {
          add(exchange.ask(ServerReflectionRequest.newBuilder().setFileByFilename(name).build()), files, missing);
        }
      }
      return GrpcSchema.build(List.copyOf(files.values()), "the reflection of " + protocol.target);
    } finally {
      exchange.close();
    }
  }

  private static void add(
      ServerReflectionResponse response, Map<String, FileDescriptorProto> files, Deque<String> missing)
      throws IOException {
    if (response.hasErrorResponse()) {
      throw new IOException(
          "the server's reflection answered " + Status.fromCodeValue(response.getErrorResponse().getErrorCode()).getCode()
              + ": " + response.getErrorResponse().getErrorMessage());
    }
    for (ByteString bytes : response.getFileDescriptorResponse().getFileDescriptorProtoList()) {
      FileDescriptorProto file = FileDescriptorProto.parseFrom(bytes);
      files.putIfAbsent(file.getName(), file);
    }
    for (FileDescriptorProto file : List.copyOf(files.values())) {
      for (String dependency : file.getDependencyList()) {
        if (!files.containsKey(dependency)) {
          missing.push(dependency);
        }
      }
    }
  }

  /** One reflection stream: each request has exactly one response, in order. */
  private static final class Exchange implements StreamObserver<ServerReflectionResponse> {
    private static final Object END = new Object();
    private final BlockingQueue<Object> responses = new LinkedBlockingQueue<>();
    private final StreamObserver<ServerReflectionRequest> requests;
    private final long timeoutMillis;

    Exchange(
        ManagedChannel channel,
        MethodDescriptor<ServerReflectionRequest, ServerReflectionResponse> method,
        GrpcProtocol protocol) {
      this.timeoutMillis = protocol.deadline.toMillis();
      this.requests =
          ClientCalls.asyncBidiStreamingCall(
              channel.newCall(
                  method,
                  io.grpc.CallOptions.DEFAULT.withDeadlineAfter(timeoutMillis, TimeUnit.MILLISECONDS)),
              this);
    }

    ServerReflectionResponse ask(ServerReflectionRequest request) throws IOException, InterruptedException {
      requests.onNext(request);
      Object response = responses.poll(timeoutMillis, TimeUnit.MILLISECONDS);
      if (response == null) {
        throw new IOException("the server's reflection did not answer within " + timeoutMillis + " ms");
      }
      if (response instanceof StatusRuntimeException e) {
        throw e;
      }
      if (response == END) {
        throw new IOException("the server closed its reflection stream without an answer");
      }
      return (ServerReflectionResponse) response;
    }

    void close() {
      requests.onCompleted();
    }

    @Override
    public void onNext(ServerReflectionResponse value) {
      responses.add(value);
    }

    @Override
    public void onError(Throwable t) {
      responses.add(t instanceof StatusRuntimeException e ? e : Status.fromThrowable(t).asRuntimeException());
    }

    @Override
    public void onCompleted() {
      responses.add(END);
    }
  }
}
