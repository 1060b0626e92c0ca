package protocols.core;

import io.gatling.core.protocol.Protocol;
import java.time.Duration;

/** What the shared action needs to know of any framework's protocol. */
public interface RpcProtocol extends Protocol {

  /** Timeout of a call whose request sets none. */
  Duration defaultTimeout();

  /** How virtual users share connections. */
  ConnectionModel connectionModel();

  /** How often its clients may try to connect again to a target that does not answer. */
  default ReconnectBackoff.Settings reconnectBackoff() {
    return ReconnectBackoff.DEFAULT;
  }
}
