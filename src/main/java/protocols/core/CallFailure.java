package protocols.core;

/**
 * A failed call as the report shows it: a short status code ({@code UNAVAILABLE}, {@code TIMEOUT}, ...)
 * and a readable message.
 */
public record CallFailure(String status, String message) {}
