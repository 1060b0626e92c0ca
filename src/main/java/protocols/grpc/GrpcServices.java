package protocols.grpc;

import com.google.protobuf.Descriptors.FileDescriptor;
import com.google.protobuf.Descriptors.MethodDescriptor;
import com.google.protobuf.Descriptors.ServiceDescriptor;
import com.google.protobuf.DynamicMessage;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.protobuf.ProtoUtils;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The methods a schema describes, by full name ({@code helloworld.Greeter/SayHello}). */
final class GrpcServices {

  private final Map<String, MethodDescriptor> methods = new LinkedHashMap<>();
  private final String source;

  GrpcServices(List<FileDescriptor> files, String source) {
    this.source = source;
    for (FileDescriptor file : files) {
      for (ServiceDescriptor service : file.getServices()) {
        for (MethodDescriptor method : service.getMethods()) {
          methods.put(service.getFullName() + "/" + method.getName(), method);
        }
      }
    }
  }

  /** The method, or an error naming the closest methods there are. */
  MethodDescriptor find(String fullName) {
    MethodDescriptor method = methods.get(fullName);
    if (method != null) {
      return method;
    }
    int slash = fullName.indexOf('/');
    String service = slash < 0 ? fullName : fullName.substring(0, slash);
    boolean serviceKnown = methods.keySet().stream().anyMatch(name -> name.startsWith(service + "/"));
    List<String> close =
        methods.keySet().stream()
            .sorted(Comparator.comparingInt(name -> distance(name, fullName)))
            .limit(5)
            .toList();
    String what =
        slash < 0
            ? "is not a full method name (expected package.Service/Method)"
            : serviceKnown ? "names no method of " + service : "names an unknown service " + service;
    throw new IllegalArgumentException(
        "grpc method \"" + fullName + "\" " + what + " in " + source
            + (close.isEmpty() ? ", which has no services" : "; closest: " + String.join(", ", close)));
  }

  /** A grpc-java method descriptor of {@code method} that (de)serializes dynamic messages. */
  static io.grpc.MethodDescriptor<DynamicMessage, DynamicMessage> grpcMethod(MethodDescriptor method) {
    return io.grpc.MethodDescriptor.<DynamicMessage, DynamicMessage>newBuilder()
        .setType(type(method))
        .setFullMethodName(
            io.grpc.MethodDescriptor.generateFullMethodName(method.getService().getFullName(), method.getName()))
        .setRequestMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(method.getInputType())))
        .setResponseMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(method.getOutputType())))
        .build();
  }

  /** As {@link #grpcMethod}, for a unary call whose reply is kept as received ({@link ReceivedMessage}). */
  static io.grpc.MethodDescriptor<DynamicMessage, ReceivedMessage> unaryMethod(MethodDescriptor method) {
    return io.grpc.MethodDescriptor.<DynamicMessage, ReceivedMessage>newBuilder()
        .setType(MethodType.UNARY)
        .setFullMethodName(
            io.grpc.MethodDescriptor.generateFullMethodName(method.getService().getFullName(), method.getName()))
        .setRequestMarshaller(ProtoUtils.marshaller(DynamicMessage.getDefaultInstance(method.getInputType())))
        .setResponseMarshaller(ReceivedMessage.marshaller(method.getOutputType()))
        .build();
  }

  private static MethodType type(MethodDescriptor method) {
    if (method.isClientStreaming()) {
      return method.isServerStreaming() ? MethodType.BIDI_STREAMING : MethodType.CLIENT_STREAMING;
    }
    return method.isServerStreaming() ? MethodType.SERVER_STREAMING : MethodType.UNARY;
  }


  private static int distance(String a, String b) {
    a = a.toLowerCase();
    b = b.toLowerCase();
    int[] previous = new int[b.length() + 1];
    int[] current = new int[b.length() + 1];
    for (int j = 0; j <= b.length(); j++) {
      previous[j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      current[0] = i;
      for (int j = 1; j <= b.length(); j++) {
        int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
        current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
      }
      int[] swap = previous;
      previous = current;
      current = swap;
    }
    return previous[b.length()];
  }
}
