package protocols.testkit;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** System properties set for the length of one call, as the simulations and bench commands read them. */
public final class SystemProperties {

  private SystemProperties() {}

  public static <T> T with(Map<String, String> properties, Callable<T> call) throws Exception {
    Map<String, String> previous = new HashMap<>();
    properties.forEach((key, value) -> previous.put(key, System.setProperty(key, value)));
    try {
      return call.call();
    } finally {
      previous.forEach(
          (key, value) -> {
            if (value == null) {
              System.clearProperty(key);
            } else {
              System.setProperty(key, value);
            }
          });
    }
  }
}
