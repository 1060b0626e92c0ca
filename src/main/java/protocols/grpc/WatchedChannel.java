package protocols.grpc;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ConnectivityState;
import io.grpc.ForwardingClientCall;
import io.grpc.ForwardingClientCallListener;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * A channel that answers what the core reconnect backoff asks: whether it ever connected, and why not.
 *
 * <p>grpc-java gives every channel a reconnect backoff of its own (1 s, ×1.6, up to 120 s) that no
 * builder setting changes (ManagedChannelImplBuilder hands ManagedChannelImpl a fixed
 * ExponentialBackoffPolicy.Provider): a thousand channels to a dead target would knock a thousand
 * times a second, then every 1.6 s. So a channel that fails before it was ever ready is shut down at
 * once, and the pool's backoff ({@link protocols.core.ReconnectBackoff}) decides when a new one may try.
 *
 * <p>A channel that was ready and lost its connection (server gone, or its GOAWAY) is shut down too, as
 * soon as it leaves READY, and replaced by the pool like a Netty connection that broke after it worked:
 * its replacement is a new attempt, and it counts against the backoff if it fails. Left alone, such a
 * channel goes IDLE (not TRANSIENT_FAILURE), still looks usable, and reconnects on grpc-java's schedule:
 * 1000 channels knocked about 470 times a second at a dead server, and came back only after grpc-java's
 * current step (tens of seconds). {@code shutdown()}, not {@code shutdownNow()}: after a GOAWAY the
 * calls in flight on the old connection may still finish.
 */
final class WatchedChannel extends ManagedChannel {

  /** How long a lost channel takes new calls before its graceful shutdown: far longer than a pool lookup. */
  private static final Executor SHUT_DOWN_LATER = CompletableFuture.delayedExecutor(200, TimeUnit.MILLISECONDS);

  private final ManagedChannel channel;
  private final String target;
  /** False with wait-for-ready: its calls wait for the server through grpc-java's own reconnects. */
  private final boolean backsOff;
  private volatile ConnectivityState state = ConnectivityState.IDLE;
  private volatile boolean wasReady;
  /** Was ready, then left READY: shut down (gracefully) for the pool to replace. */
  private volatile boolean lost;
  /** How the last call failed before the channel was ever ready: the cause a backoff reports. */
  private volatile Status failure;

  WatchedChannel(ManagedChannel channel, String target, boolean backsOff) {
    this.channel = channel;
    this.target = target;
    this.backsOff = backsOff;
    watch(ConnectivityState.IDLE);
  }

  private void watch(ConnectivityState seen) {
    // the callback runs in the channel's synchronization context (its executor is direct)
    channel.notifyWhenStateChanged(seen, () -> {
      ConnectivityState now = channel.getState(false);
      state = now;
      if (now == ConnectivityState.READY) {
        wasReady = true;
      } else if (now == ConnectivityState.TRANSIENT_FAILURE && !wasReady && backsOff) {
        channel.shutdownNow(); // before grpc-java's own backoff tries again
        state = ConnectivityState.SHUTDOWN;
        return;
      } else if (wasReady && backsOff && now != ConnectivityState.SHUTDOWN) {
        lost = true; // before grpc-java reconnects on its own (at the next call, then 1 s, 1.6 s...)
        state = ConnectivityState.SHUTDOWN;
        // later, not now: a user that found it usable an instant before may be starting a call on it, and
        // on a channel shut down at once that call failed with "Channel shutdown invoked" (GrpcGoawayTest)
        SHUT_DOWN_LATER.execute(channel::shutdown);
        return;
      }
      if (now != ConnectivityState.SHUTDOWN) {
        watch(now);
      }
    });
  }

  /** False once the channel failed to connect, or lost the connection it had. */
  boolean usable() {
    ConnectivityState now = state;
    return (now != ConnectivityState.TRANSIENT_FAILURE || !backsOff) && now != ConnectivityState.SHUTDOWN && !channel.isShutdown();
  }

  boolean wasReady() {
    return wasReady;
  }

  /** Whether it was ready and then lost its connection (and is shutting down). */
  boolean lost() {
    return lost;
  }

  /** Why the channel never connected, or null when it did. */
  Throwable failedBeforeReady() {
    if (wasReady) {
      return null;
    }
    Status last = failure;
    if (last != null) {
      return new IllegalStateException(GrpcFailures.describe(last.asRuntimeException()).message());
    }
    return new IllegalStateException("the channel to " + target + " never connected");
  }

  @Override
  public <Q, A> ClientCall<Q, A> newCall(MethodDescriptor<Q, A> method, CallOptions options) {
    ClientCall<Q, A> call = channel.newCall(method, options);
    if (wasReady) {
      return call; // the common case: nothing between the caller and grpc-java
    }
    return new ForwardingClientCall.SimpleForwardingClientCall<>(call) {
      @Override
      public void start(Listener<A> listener, Metadata headers) {
        super.start(
            new ForwardingClientCallListener.SimpleForwardingClientCallListener<>(listener) {
              @Override
              public void onClose(Status status, Metadata trailers) {
                if (!status.isOk() && !wasReady) {
                  failure = status;
                }
                super.onClose(status, trailers);
              }
            },
            headers);
      }
    };
  }

  @Override
  public String authority() {
    return channel.authority();
  }

  @Override
  public ManagedChannel shutdown() {
    channel.shutdown();
    return this;
  }

  @Override
  public boolean isShutdown() {
    return channel.isShutdown();
  }

  @Override
  public boolean isTerminated() {
    return channel.isTerminated();
  }

  @Override
  public ManagedChannel shutdownNow() {
    channel.shutdownNow();
    return this;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return channel.awaitTermination(timeout, unit);
  }

  @Override
  public ConnectivityState getState(boolean requestConnection) {
    return channel.getState(requestConnection);
  }

  @Override
  public void notifyWhenStateChanged(ConnectivityState source, Runnable callback) {
    channel.notifyWhenStateChanged(source, callback);
  }

  @Override
  public void resetConnectBackoff() {
    channel.resetConnectBackoff();
  }

  @Override
  public void enterIdle() {
    channel.enterIdle();
  }
}
