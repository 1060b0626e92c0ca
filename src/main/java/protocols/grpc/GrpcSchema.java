package protocols.grpc;

import com.google.protobuf.DescriptorProtos.FileDescriptorProto;
import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.Descriptors.DescriptorValidationException;
import com.google.protobuf.Descriptors.FileDescriptor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a protocol finds the services of calls made without stubs: the server's reflection, a
 * descriptor set file, or {@code .proto} files compiled by {@link Protoc} at run time.
 */
record GrpcSchema(Kind kind, String descriptorSet, List<String> protoFiles, List<String> protoPaths) {

  enum Kind {
    REFLECTION,
    DESCRIPTOR_SET,
    PROTO_FILES
  }

  static GrpcSchema reflection() {
    return new GrpcSchema(Kind.REFLECTION, null, List.of(), List.of());
  }

  static GrpcSchema descriptorSet(String file) {
    return new GrpcSchema(Kind.DESCRIPTOR_SET, file, List.of(), List.of());
  }

  static GrpcSchema protoFiles(List<String> files, List<String> paths) {
    return new GrpcSchema(Kind.PROTO_FILES, null, List.copyOf(files), List.copyOf(paths));
  }

  GrpcSchema withProtoPaths(List<String> paths) {
    return new GrpcSchema(kind, descriptorSet, protoFiles, List.copyOf(paths));
  }

  /** Reads the schema: blocking, once per simulation (the protocol memoizes it). */
  GrpcServices load(GrpcProtocol protocol) throws IOException, InterruptedException {
    return switch (kind) {
      case REFLECTION -> new GrpcServices(ServerReflection.files(protocol), "the server's reflection at " + protocol.target);
      case DESCRIPTOR_SET -> new GrpcServices(readDescriptorSet(Path.of(descriptorSet)), "descriptor set " + descriptorSet);
      case PROTO_FILES -> new GrpcServices(
          build(Protoc.compile(protoFiles, protoPaths).getFileList(), "protoc's output"),
          "proto files " + String.join(", ", protoFiles));
    };
  }

  private static List<FileDescriptor> readDescriptorSet(Path file) throws IOException {
    if (!Files.isReadable(file)) {
      throw new IOException(
          "grpc.descriptorSet: cannot read " + file.toAbsolutePath()
              + " (expected a FileDescriptorSet, e.g. from protoc --include_imports --descriptor_set_out=" + file + ")");
    }
    FileDescriptorSet set;
    try {
      set = FileDescriptorSet.parseFrom(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new IOException("grpc.descriptorSet: " + file + " is not a FileDescriptorSet: " + e.getMessage(), e);
    }
    return build(set.getFileList(), "descriptor set " + file);
  }

  /** Links file descriptor protos, each after its imports; all imports must be among them. */
  static List<FileDescriptor> build(List<FileDescriptorProto> protos, String source) throws IOException {
    Map<String, FileDescriptorProto> byName = new LinkedHashMap<>();
    for (FileDescriptorProto proto : protos) {
      byName.putIfAbsent(proto.getName(), proto);
    }
    Map<String, FileDescriptor> built = new HashMap<>();
    List<FileDescriptor> all = new ArrayList<>();
    for (String name : byName.keySet()) {
      all.add(link(name, byName, built, source, new ArrayList<>()));
    }
    return all;
  }

  private static FileDescriptor link(
      String name,
      Map<String, FileDescriptorProto> byName,
      Map<String, FileDescriptor> built,
      String source,
      List<String> chain)
      throws IOException {
    FileDescriptor done = built.get(name);
    if (done != null) {
      return done;
    }
    FileDescriptorProto proto = byName.get(name);
    if (proto == null) {
      throw new IOException(
          source + " lacks " + name + ", imported by " + chain.get(chain.size() - 1)
              + " (a descriptor set needs protoc's --include_imports)");
    }
    if (chain.contains(name)) {
      throw new IOException(source + ": import cycle " + String.join(" -> ", chain) + " -> " + name);
    }
    chain.add(name);
    List<FileDescriptor> dependencies = new ArrayList<>();
    for (String dependency : proto.getDependencyList()) {
      dependencies.add(link(dependency, byName, built, source, chain));
    }
    chain.remove(chain.size() - 1);
    try {
      FileDescriptor file = FileDescriptor.buildFrom(proto, dependencies.toArray(FileDescriptor[]::new));
      built.put(name, file);
      return file;
    } catch (DescriptorValidationException e) {
      throw new IOException(source + ": " + name + " is not a valid schema: " + e.getMessage(), e);
    }
  }
}
