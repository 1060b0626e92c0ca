package protocols.core.check;

import io.gatling.javaapi.core.CheckBuilder;

/** Marks the checks this bridge builds, so a request can tell a status check from the others. */
public enum RpcCheckType implements CheckBuilder.CheckType {
  RESPONSE,
  STATUS
}
