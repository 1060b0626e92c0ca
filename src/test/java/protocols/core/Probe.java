package protocols.core;

import io.gatling.javaapi.core.ProtocolBuilder;
import io.gatling.javaapi.core.Session;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The smallest framework on the bridge, for testing the bridge itself: each call is answered by a
 * function the test chooses, and the clients count how often they are opened and closed.
 */
public final class Probe {

  private Probe() {}

  /** What answers a call. */
  @FunctionalInterface
  public interface Answer {
    CompletableFuture<String> apply(String request, Session session) throws Exception;
  }

  public static final AtomicInteger opened = new AtomicInteger();
  public static final AtomicInteger closed = new AtomicInteger();
  /** Calls sent from another thread than the event loop their client was given (a thread hop). */
  public static final AtomicInteger callsOffTheirClientsLoop = new AtomicInteger();
  /** How many calls a client takes before it turns unusable (a connection that broke); for good by default. */
  public static volatile int callsPerClient = Integer.MAX_VALUE;
  /** Calls sent on a client that had turned unusable. */
  public static final AtomicInteger callsOnUnusableClients = new AtomicInteger();

  public static void resetCounters() {
    opened.set(0);
    closed.set(0);
    callsOffTheirClientsLoop.set(0);
    callsPerClient = Integer.MAX_VALUE;
    callsOnUnusableClients.set(0);
  }

  public static final class Client {
    final ClientIo io;
    final AtomicInteger calls = new AtomicInteger();

    Client(ClientIo io) {
      this.io = io;
    }

    boolean usable() {
      return calls.get() < callsPerClient;
    }
  }

  public static final class ProbeProtocol implements RpcProtocol {
    final Duration timeout;
    final ConnectionModel connections;

    ProbeProtocol(Duration timeout, ConnectionModel connections) {
      this.timeout = timeout;
      this.connections = connections;
    }

    @Override
    public Duration defaultTimeout() {
      return timeout;
    }

    @Override
    public ConnectionModel connectionModel() {
      return connections;
    }
  }

  static final RpcProtocolKey<ProbeProtocol, Client> KEY =
      new RpcProtocolKey<>(
          ProbeProtocol.class,
          "probe",
          new ClientFactory<>() {
            @Override
            public Client open(ProbeProtocol protocol, ClientIo io) {
              opened.incrementAndGet();
              return new Client(io);
            }

            @Override
            public boolean isUsable(Client client) {
              return client.usable();
            }

            @Override
            public void close(Client client) {
              closed.incrementAndGet();
            }
          });

  public static ProtocolBuilder protocol(Duration timeout, ConnectionModel connections) {
    return () -> new ProbeProtocol(timeout, connections);
  }

  public static Request probe(String name) {
    return new Request(RpcRequestBuilder.Common.named(name), null);
  }

  public static final class Request
      extends RpcRequestBuilder<Request, ProbeProtocol, Client, String, String> {
    private final Answer answer;

    Request(Common<String> common, Answer answer) {
      super(common);
      this.answer = answer;
    }

    public Request answer(Answer answer) {
      return new Request(common, answer);
    }

    @Override
    protected Request withCommon(Common<String> common) {
      return new Request(common, answer);
    }

    @Override
    protected RpcProtocolKey<ProbeProtocol, Client> protocolKey() {
      return KEY;
    }

    @Override
    protected RpcCall<Client, String, String> call(ProbeProtocol protocol) {
      return (client, request, context) -> {
        if (!client.io.eventLoop().inEventLoop()) {
          callsOffTheirClientsLoop.incrementAndGet();
        }
        if (!client.usable()) {
          callsOnUnusableClients.incrementAndGet();
        }
        client.calls.incrementAndGet();
        return answer.apply(request, context.session());
      };
    }
  }
}
