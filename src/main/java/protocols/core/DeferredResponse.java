package protocols.core;

/**
 * A response kept as it arrived and decoded only when a check reads it: a call checked by its status
 * alone, or by a view of its own (a JSON tree built from the bytes), never pays for the decoding.
 */
public interface DeferredResponse {

  /** The decoded response, as {@code response(...)} checks take it; decoded at most once. */
  Object decoded() throws Exception;
}
