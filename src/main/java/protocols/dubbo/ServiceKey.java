package protocols.dubbo;

/**
 * A service a request calls: its interface (a class for typed calls, only a name for generic ones),
 * group and version.
 */
record ServiceKey(String interfaceName, Class<?> type, String group, String version) {

  static ServiceKey typed(Class<?> type) {
    return new ServiceKey(type.getName(), type, null, null);
  }

  static ServiceKey generic(String interfaceName) {
    return new ServiceKey(interfaceName, null, null, null);
  }

  boolean isGeneric() {
    return type == null;
  }

  ServiceKey withGroup(String group) {
    return new ServiceKey(interfaceName, type, group, version);
  }

  ServiceKey withVersion(String version) {
    return new ServiceKey(interfaceName, type, group, version);
  }

  @Override
  public String toString() {
    return (group == null ? "" : group + "/") + interfaceName + (version == null ? "" : ":" + version);
  }
}
