package protocols.rpcx;

import io.gatling.commons.validation.Failure;
import io.gatling.commons.validation.Success;
import io.gatling.commons.validation.Validation;
import io.gatling.core.session.Session;
import io.gatling.javaapi.core.internal.Expressions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import protocols.core.CallFailure;
import protocols.core.FailureDescriber;
import protocols.core.RpcCall;
import protocols.core.RpcProtocolKey;
import protocols.core.RpcRequestBuilder;
import protocols.rpcx.client.RpcxConnection;
import protocols.rpcx.client.RpcxException;
import protocols.rpcx.codec.RpcxMessage;
import protocols.rpcx.codec.SerializeType;
import scala.Function1;

/** An rpcx call: payload, metadata, oneway, timeout and checks. Immutable. */
public final class RpcxRequestBuilder<Req, Res>
    extends RpcRequestBuilder<RpcxRequestBuilder<Req, Res>, RpcxProtocol, RpcxConnection, Req, Res> {

  private record Metadata(String key, Function1<Session, Validation<String>> value) {}

  private final String servicePath;
  private final String method;
  private final PayloadCodec<Req, Res> codec;
  private final List<Metadata> metadata;
  private final boolean oneway;

  RpcxRequestBuilder(
      Common<Req> common,
      String servicePath,
      String method,
      PayloadCodec<Req, Res> codec,
      List<Metadata> metadata,
      boolean oneway) {
    super(common);
    this.servicePath = servicePath;
    this.method = method;
    this.codec = codec;
    this.metadata = metadata;
    this.oneway = oneway;
  }

  @Override
  protected RpcxRequestBuilder<Req, Res> withCommon(Common<Req> common) {
    return new RpcxRequestBuilder<>(common, servicePath, method, codec, metadata, oneway);
  }

  /** Metadata for this call; the value may use Gatling EL ({@code "#{token}"}). */
  public RpcxRequestBuilder<Req, Res> metadata(String key, String value) {
    if (key == null || key.isEmpty() || value == null) {
      throw new IllegalArgumentException(
          "rpcx(\"" + common.nameTemplate() + "\").metadata: expected a non-empty key and a value, got " + key + "=" + value);
    }
    List<Metadata> all = new ArrayList<>(metadata);
    all.add(new Metadata(key, Expressions.toStringExpression(value)));
    return new RpcxRequestBuilder<>(common, servicePath, method, codec, List.copyOf(all), oneway);
  }

  /**
   * A oneway call: the server sends no reply, so the call is OK once written and its response (for
   * checks) is null.
   */
  public RpcxRequestBuilder<Req, Res> oneway() {
    return new RpcxRequestBuilder<>(common, servicePath, method, codec, metadata, true);
  }

  @Override
  protected RpcProtocolKey<RpcxProtocol, RpcxConnection> protocolKey() {
    return RpcxProtocol.KEY;
  }

  @Override
  protected FailureDescriber failureDescriber() {
    return failure -> failure instanceof RpcxException e
        ? new CallFailure(e.status(), e.getMessage())
        : FailureDescriber.DEFAULT.describe(failure);
  }

  @Override
  protected RpcCall<RpcxConnection, Req, Res> call(RpcxProtocol protocol) {
    SerializeType type = codec.serializeType(protocol.serializeType);
    RpcxMessage template =
        RpcxMessage.request(servicePath, method)
            .serializeType(type)
            .oneway(oneway)
            .metadata(protocol.metadata)
            .build();
    String target = servicePath + "." + method;
    return (connection, request, context) -> {
      byte[] payload;
      try {
        payload = codec.encode(request, type);
      } catch (Exception e) {
        throw new IllegalArgumentException(
            "the payload of " + target + " cannot be encoded as " + type + ": " + e.getMessage(), e);
      }
      RpcxMessage.Builder message = template.toBuilder().payload(payload);
      for (Metadata pair : metadata) {
        Validation<String> value = pair.value().apply(context.session().asScala());
        if (((Object) value) instanceof Failure failure) {
          throw new IllegalArgumentException(
              "metadata " + pair.key() + " could not be resolved: " + failure.message());
        }
        message.putMetadata(pair.key(), ((Success<String>) value).value());
      }
      return connection
          .call(message.build(), context.timeout())
          .thenApply(
              reply -> {
                if (reply == null) {
                  return null; // oneway
                }
                try {
                  return codec.decode(reply);
                } catch (Exception e) {
                  throw new RpcxException(
                      RpcxException.DECODE,
                      "the reply of " + target + " is not " + codec.expected() + ": " + e.getMessage(),
                      e);
                }
              });
    };
  }
}
