package protocols.core;

import io.gatling.javaapi.core.Session;
import java.time.Duration;

/** What a call may need besides its request: the virtual user's session and the call's timeout. */
public record CallContext(Session session, Duration timeout) {}
