package protocols.motan;

import com.weibo.api.motan.common.MotanConstants;
import com.weibo.api.motan.rpc.ResponseFuture;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;

/** A named Motan request whose service is not chosen yet. */
public final class MotanRequest {

  private final String requestName;

  MotanRequest(String requestName) {
    this.requestName = requestName;
  }

  /**
   * The service, by its asynchronous interface: Motan's convention is an interface named like the
   * provider's plus {@code Async} (the one {@code @MotanAsync} generates, or written by hand) that
   * extends the provider's interface and adds, for each method {@code m}, {@code ResponseFuture
   * mAsync(...)} with the same parameters.
   */
  public <S> MotanServiceRequest<S> service(Class<S> asyncInterface) {
    String where = "motan(\"" + requestName + "\").service";
    if (asyncInterface == null || !asyncInterface.isInterface()) {
      throw new IllegalArgumentException(
          where + "(" + asyncInterface + "): expected an interface, such as the XxxAsync interface of a Motan service Xxx");
    }
    List<String> asyncMethods = new ArrayList<>();
    for (Method method : asyncInterface.getMethods()) {
      String name = method.getName();
      if (!name.endsWith(MotanConstants.ASYNC_SUFFIX) || method.getReturnType() != ResponseFuture.class) {
        continue;
      }
      String syncName = name.substring(0, name.length() - MotanConstants.ASYNC_SUFFIX.length());
      try {
        asyncInterface.getMethod(syncName, method.getParameterTypes());
      } catch (NoSuchMethodException e) {
        throw new IllegalArgumentException(
            where + "(" + asyncInterface.getName() + "): " + name + " has no synchronous counterpart "
                + syncName + " with the same parameters; Motan needs it to know the result type: extend the service's interface");
      }
      asyncMethods.add(name);
    }
    if (asyncMethods.isEmpty()) {
      throw new IllegalArgumentException(
          where + "(" + asyncInterface.getName() + "): expected an asynchronous Motan interface, with methods"
              + " named xxxAsync returning com.weibo.api.motan.rpc.ResponseFuture; found none");
    }
    return new MotanServiceRequest<>(requestName, asyncInterface);
  }
}
