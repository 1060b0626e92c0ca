package protocols.grpc;

import com.google.protobuf.DescriptorProtos.FileDescriptorSet;
import com.google.protobuf.RuntimeVersion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Compiles {@code .proto} files into descriptors at run time with the {@code protoc} that Maven
 * already holds (the protobuf-maven-plugin's {@code com.google.protobuf:protoc} of the protobuf-java
 * version on the class path), or the one named by {@code -Dgrpc.protoc=/path/to/protoc}. Nothing is
 * downloaded.
 */
final class Protoc {

  private static final String[] WELL_KNOWN = {
    "any", "api", "duration", "empty", "field_mask", "source_context", "struct", "timestamp", "type",
    "wrappers", "descriptor"
  };

  private Protoc() {}

  static FileDescriptorSet compile(List<String> files, List<String> paths) throws IOException, InterruptedException {
    for (String file : files) {
      if (paths.isEmpty() && !Files.isReadable(Path.of(file))) {
        throw new IOException("grpc.protoFiles: cannot read " + Path.of(file).toAbsolutePath());
      }
    }
    for (String path : paths) {
      if (!Files.isDirectory(Path.of(path))) {
        throw new IOException("grpc.protoPath: " + Path.of(path).toAbsolutePath() + " is not a directory");
      }
    }
    Path work = Files.createTempDirectory("gatling-rpc-protoc");
    try {
      Path out = work.resolve("schema.protoset");
      List<String> command = new ArrayList<>();
      command.add(executable(work).toString());
      command.add("--include_imports");
      command.add("--descriptor_set_out=" + out);
      command.add("-I" + wellKnownTypes(work));
      if (paths.isEmpty()) {
        // each file found where it is: its directory is its import root
        for (String file : files) {
          Path parent = Path.of(file).toAbsolutePath().getParent();
          command.add("-I" + parent);
        }
        for (String file : files) {
          command.add(Path.of(file).toAbsolutePath().toString());
        }
      } else {
        for (String path : paths) {
          command.add("-I" + path);
        }
        command.addAll(files);
      }
      Process protoc = new ProcessBuilder(command).redirectErrorStream(true).start();
      String output = new String(protoc.getInputStream().readAllBytes()).trim();
      if (!protoc.waitFor(60, TimeUnit.SECONDS)) {
        protoc.destroyForcibly();
        throw new IOException("protoc did not finish within 60 s: " + command);
      }
      if (protoc.exitValue() != 0) {
        // protoc names the file and line: "a.proto:3:5: Expected ..."
        throw new IOException("grpc.protoFiles: protoc could not compile " + String.join(", ", files) + ": " + output);
      }
      return FileDescriptorSet.parseFrom(Files.readAllBytes(out));
    } finally {
      deleteTree(work);
    }
  }

  /** protoc's own imports (google/protobuf/*.proto), as protobuf-java ships them. */
  private static Path wellKnownTypes(Path work) throws IOException {
    Path root = work.resolve("include");
    for (String name : WELL_KNOWN) {
      String resource = "google/protobuf/" + name + ".proto";
      try (InputStream in = Protoc.class.getClassLoader().getResourceAsStream(resource)) {
        if (in != null) {
          Path target = root.resolve(resource);
          Files.createDirectories(target.getParent());
          Files.copy(in, target);
        }
      }
    }
    return root;
  }

  private static Path executable(Path work) throws IOException {
    String configured = System.getProperty("grpc.protoc");
    if (configured != null) {
      Path given = Path.of(configured);
      if (!Files.isExecutable(given)) {
        throw new IOException("-Dgrpc.protoc=" + configured + ": not an executable file");
      }
      return given;
    }
    String version = RuntimeVersion.MAJOR + "." + RuntimeVersion.MINOR + "." + RuntimeVersion.PATCH;
    String classifier = classifier();
    Path repository =
        Path.of(System.getProperty("maven.repo.local", System.getProperty("user.home") + "/.m2/repository"));
    Path exe =
        repository.resolve("com/google/protobuf/protoc/" + version + "/protoc-" + version + "-" + classifier + ".exe");
    if (!Files.isReadable(exe)) {
      throw new IOException(
          "grpc.protoFiles: no protoc at " + exe + " (the build's protobuf-maven-plugin puts it there: run mvn"
              + " compile once; or name one with -Dgrpc.protoc=/path/to/protoc, or use .descriptorSet(...))");
    }
    if (Files.isExecutable(exe)) {
      return exe;
    }
    // Maven stores it without the executable bit: run a copy
    Path copy = work.resolve("protoc");
    Files.copy(exe, copy, StandardCopyOption.REPLACE_EXISTING);
    if (!copy.toFile().setExecutable(true)) {
      throw new IOException("cannot make a copy of " + exe + " executable");
    }
    return copy;
  }

  private static String classifier() {
    String os = System.getProperty("os.name").toLowerCase();
    String arch = System.getProperty("os.arch").toLowerCase();
    String osPart = os.contains("linux") ? "linux" : os.contains("mac") ? "osx" : os.contains("win") ? "windows" : os;
    String archPart =
        arch.equals("amd64") || arch.equals("x86_64") ? "x86_64" : arch.equals("aarch64") || arch.equals("arm64") ? "aarch_64" : arch;
    return osPart + "-" + archPart;
  }

  private static void deleteTree(Path root) throws IOException {
    try (var paths = Files.walk(root)) {
      for (Path path : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(path);
      }
    }
  }
}
