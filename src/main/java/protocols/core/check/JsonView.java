package protocols.core.check;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * A response as the Jackson tree Gatling's {@code jsonPath(...)} checks take: a framework that can
 * build it from its decoded response skips printing JSON text and parsing it again.
 */
@FunctionalInterface
public interface JsonView {
  JsonNode json(Object response) throws Exception;
}
