package protocols.dubbo;

import java.util.Locale;

/**
 * How Dubbo finds providers in a registry: per interface (Dubbo 2's way, which every provider
 * understands) or per application instance (Dubbo 3's service discovery, its default for new
 * applications). Each value pairs the consumer's migration step with the provider's register mode.
 */
public enum DubboDiscovery {
  /** Providers registered per interface; Dubbo's migration step {@code FORCE_INTERFACE}. */
  INTERFACE("FORCE_INTERFACE", "interface"),
  /** Application instances only; {@code FORCE_APPLICATION} (providers register with mode {@code instance}). */
  APPLICATION("FORCE_APPLICATION", "instance"),
  /**
   * Application instances when there are any, else interfaces; {@code APPLICATION_FIRST} (providers
   * register both ways, mode {@code all}).
   */
  APPLICATION_FIRST("APPLICATION_FIRST", "all");

  private final String migrationStep;
  private final String registerMode;

  DubboDiscovery(String migrationStep, String registerMode) {
    this.migrationStep = migrationStep;
    this.registerMode = registerMode;
  }

  /** The consumer's {@code migration.step} ({@code dubbo.application.service-discovery.migration}). */
  public String migrationStep() {
    return migrationStep;
  }

  /** The provider's {@code register-mode}. */
  public String registerMode() {
    return registerMode;
  }

  /**
   * {@code interface}, {@code application} or {@code application-first}, or Dubbo's own names of the
   * steps ({@code FORCE_INTERFACE}, {@code FORCE_APPLICATION}, {@code APPLICATION_FIRST}); {@code what}
   * names the input in the error.
   */
  public static DubboDiscovery parse(String text, String what) {
    String value = text == null ? "" : text.trim().toUpperCase(Locale.ROOT).replace('-', '_');
    for (DubboDiscovery discovery : values()) {
      if (discovery.name().equals(value) || discovery.migrationStep.equals(value)) {
        return discovery;
      }
    }
    throw new IllegalArgumentException(
        what + "=" + text + ": expected interface (FORCE_INTERFACE, the default), application (FORCE_APPLICATION)"
            + " or application-first (APPLICATION_FIRST)");
  }

  /** As users write it: {@code interface}, {@code application}, {@code application-first}. */
  @Override
  public String toString() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
