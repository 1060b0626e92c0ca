package protocols.grpc;

import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.internal.Expressions;
import io.grpc.Metadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The metadata of a call or stream: the protocol's headers and its own, resolved with Gatling EL. */
final class GrpcMetadata {

  private record Header(Metadata.Key<String> key, scala.Function1<Session, Validation<String>> value) {}

  static final GrpcMetadata NONE = new GrpcMetadata(List.of());

  private final List<Header> headers;

  private GrpcMetadata(List<Header> headers) {
    this.headers = headers;
  }

  GrpcMetadata with(String key, String valueExpression) {
    List<Header> all = new ArrayList<>(headers);
    all.add(new Header(GrpcHeaders.key(key), Expressions.toStringExpression(valueExpression)));
    return new GrpcMetadata(List.copyOf(all));
  }

  /** What a call sends: resolved once per simulation for the protocol, per call for the rest. */
  Resolver resolver(GrpcProtocol protocol) {
    Metadata defaults = new Metadata();
    for (Map.Entry<String, String> header : protocol.headers.entrySet()) {
      defaults.put(GrpcHeaders.key(header.getKey()), header.getValue());
    }
    List<GrpcChannelOptions.CallCredentials> credentials = protocol.options.callCredentials();
    return session -> {
      Metadata metadata = new Metadata();
      metadata.merge(defaults);
      if (!credentials.isEmpty()) {
        addCredentials(metadata, credentials, session);
      }
      for (Header header : headers) {
        Validation<String> value = header.value().apply(session);
        if (((Object) value) instanceof Failure failure) {
          throw new IllegalArgumentException(
              "header " + header.key().name() + " could not be resolved: " + failure.message());
        }
        metadata.put(header.key(), ((Success<String>) value).value());
      }
      return metadata;
    };
  }

  private static void addCredentials(
      Metadata metadata, List<GrpcChannelOptions.CallCredentials> credentials, Session session) {
    io.gatling.javaapi.core.Session user = new io.gatling.javaapi.core.Session(session);
    for (GrpcChannelOptions.CallCredentials credential : credentials) {
      Map<String, String> headers = credential.headers(user);
      if (headers == null) {
        throw new IllegalArgumentException("grpc.callCredentials: the function returned null, expected a map of headers");
      }
      for (Map.Entry<String, String> header : headers.entrySet()) {
        if (header.getValue() == null) {
          throw new IllegalArgumentException("grpc.callCredentials: header " + header.getKey() + " has a null value");
        }
        metadata.put(GrpcHeaders.key(header.getKey()), header.getValue());
      }
    }
  }

  @FunctionalInterface
  interface Resolver {
    Metadata resolve(Session session);
  }
}
