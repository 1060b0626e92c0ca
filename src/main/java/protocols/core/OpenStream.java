package protocols.core;

import io.gatling.commons.stats.KO$;
import io.gatling.commons.stats.OK$;
import io.gatling.commons.validation.Failure;
import io.gatling.core.check.Check$;
import io.gatling.core.session.Session;
import io.netty.util.Timeout;
import java.util.concurrent.atomic.AtomicInteger;
import scala.Option;
import scala.Tuple2;

/**
 * One stream a virtual user holds, kept in its session under the stream's name. Every received
 * message is checked, logged as one response and timed by the stream's {@link
 * MessageResponseTimePolicy} as it arrives, while the user goes on with its scenario.
 *
 * <p>State changes only on the user's event loop: the adapter's callbacks, from any thread, are
 * moved there first.
 */
final class OpenStream<Req, Res> implements StreamListener<Res> {

  private static final AtomicInteger OPEN = new AtomicInteger();

  /** Streams of this JVM opened and not closed yet, whatever their user and simulation. */
  static int openCount() {
    return OPEN.get();
  }

  private final StreamAction<?, ?, Req, Res> owner;
  private final Session startSession;
  /** The groups its responses are logged under: the starting session's, read once while it is in the cache. */
  private final scala.collection.immutable.List<String> groups;
  private Session checkSession;
  private final String requestName;
  private final String streamName;
  private final String key;
  final long startMillis;
  final long startNanos;
  private long lastSentMillis;
  private long lastSentNanos;
  private long lastReceivedMillis;
  private long lastReceivedNanos;
  private int received;
  private boolean halfClosed;
  private boolean closed;
  private boolean failed;
  private String closeText = "not closed";
  private RpcStream<Req> stream;
  /** This stream's messages in the µs record, set once it is open. */
  private LatencyRecord.StreamMessages counted = LatencyRecord.StreamMessages.NONE;
  /** Where its messages are timed in the µs record, set once it is open. */
  private LatencyRecord.Timings timings;
  private Timeout backstop;
  private Runnable whenReady;
  private Runnable whenEnded;
  /** Received messages that no awaitMessages has counted yet. */
  private int unawaited;
  /** What the user waiting in awaitMessages needs (0: nobody waits), and where it goes on. */
  private int awaited;
  private Runnable whenArrived;
  private java.util.function.Consumer<String> whenMissed;
  private Timeout awaitTimer;
  private int waits;

  OpenStream(
      StreamAction<?, ?, Req, Res> owner,
      Session session,
      String requestName,
      String streamName,
      String key,
      long startMillis,
      long startNanos) {
    this.owner = owner;
    this.startSession = session;
    this.groups = ResponseBatch.groupsOf(session);
    this.checkSession = session;
    this.requestName = requestName;
    this.streamName = streamName;
    this.key = key;
    this.startMillis = startMillis;
    this.startNanos = startNanos;
    this.lastSentMillis = startMillis;
    this.lastSentNanos = startNanos;
    this.lastReceivedMillis = startMillis;
    this.lastReceivedNanos = startNanos;
  }

  void opened(RpcStream<Req> stream) {
    this.stream = stream;
    OPEN.incrementAndGet();
    counted = owner.latencies.recordStreamOpened(requestName);
    timings = owner.latencies.timings(requestName);
    backstop =
        Deadlines.schedule(
            Deadlines.backstop(owner.timeout),
            () -> BridgeAction.later(startSession, this::giveUp));
  }

  /** The adapter threw while opening: callbacks it may still make find the stream closed. */
  void openFailed() {
    closed = true;
    failed = true;
    closeText = "it could not be opened";
  }

  boolean closed() {
    return closed;
  }

  String requestName() {
    return requestName;
  }

  boolean halfClosed() {
    return halfClosed;
  }

  String closeText() {
    return closeText;
  }

  void send(Req message) {
    stream.send(message);
    lastSentMillis = owner.clock.nowMillis();
    lastSentNanos = System.nanoTime();
    counted.sent();
  }

  void halfClose() {
    if (!closed && !halfClosed) {
      halfClosed = true;
      stream.halfClose();
    }
  }

  /** Runs {@code next} now when the stream takes more messages, or else once it does (or closes). */
  void whenReady(Runnable next) {
    // a half-closed stream takes no more messages: nothing to wait for
    if (closed || halfClosed || stream.isReady()) {
      next.run();
    } else {
      whenReady = next;
    }
  }

  /** Runs {@code next} now when the stream is over, or else once it is. */
  void whenEnded(Runnable next) {
    if (closed) {
      next.run();
    } else {
      whenEnded = next;
    }
  }

  /**
   * Runs {@code arrived} once {@code count} messages no earlier wait counted are in (at once if they
   * are), or {@code missed} with the reason when the stream ends or {@code timeout} (null: none)
   * passes first.
   */
  void whenMessages(int count, java.time.Duration timeout, Runnable arrived, java.util.function.Consumer<String> missed) {
    if (unawaited >= count) {
      unawaited -= count;
      arrived.run();
      return;
    }
    if (closed) {
      missed.accept(endedBefore(count));
      return;
    }
    awaited = count;
    whenArrived = arrived;
    whenMissed = missed;
    if (timeout != null) {
      int wait = ++waits;
      awaitTimer =
          Deadlines.schedule(
              timeout, () -> BridgeAction.later(startSession, () -> awaitTimedOut(wait, count, timeout)));
    }
  }

  private void awaitTimedOut(int wait, int count, java.time.Duration timeout) {
    if (wait == waits && awaited > 0) {
      missWith(
          "awaitMessages(" + count + ") on stream '" + streamName + "' timed out after " + timeout.toMillis() + " ms: "
              + unawaited + " of " + count + " arrived");
    }
  }

  private String endedBefore(int count) {
    return "stream '" + streamName + "' ended (" + closeText + ") before awaitMessages(" + count + ") was met: "
        + unawaited + " of " + count + " arrived";
  }

  private void missWith(String why) {
    java.util.function.Consumer<String> missed = whenMissed;
    endAwait();
    missed.accept(why);
  }

  /** The wait is over, met or missed: nothing awaited, no callbacks, no timer. */
  private void endAwait() {
    awaited = 0;
    whenArrived = null;
    whenMissed = null;
    if (awaitTimer != null) {
      awaitTimer.cancel();
      awaitTimer = null;
    }
  }

  private void arrivedIfAwaited() {
    if (awaited > 0 && unawaited >= awaited) {
      unawaited -= awaited;
      Runnable go = whenArrived;
      endAwait();
      go.run();
    }
  }

  /**
   * The user's session once it is done with this stream: without it, with the values the message
   * checks saved, and failed when the stream had a KO.
   */
  Session finish(Session session) {
    Session done = session.remove(key);
    var saved = scala.jdk.javaapi.CollectionConverters.asJava(checkSession.attributes());
    for (var entry : saved.entrySet()) {
      Option<Object> before = startSession.attributes().get(entry.getKey());
      if (!entry.getKey().startsWith(StreamAction.KEY_PREFIX)
          && (before.isEmpty() || !before.get().equals(entry.getValue()))) {
        done = done.set(entry.getKey(), entry.getValue());
      }
    }
    return failed ? done.markAsFailed() : done;
  }

  void cancelByUser() {
    if (closed) {
      return;
    }
    close("cancelled by the scenario");
    stream.cancel("cancelled by the scenario");
    owner.latencies.recordStreamClosed(requestName, System.nanoTime() - startNanos, LatencyRecord.StreamEnd.CANCELLED);
  }

  /** The user ended with this stream open: cancelled, and a KO saying so. */
  void cancelAtExit() {
    if (closed) {
      return;
    }
    stream.cancel("the virtual user ended with the stream open");
    close("cancelled when the user ended");
    String message =
        "the virtual user ended with stream '" + streamName + "' still open: cancelled after " + messages(received) + " received";
    ko("CANCELLED", message, owner.clock.nowMillis(), System.nanoTime());
    owner.latencies.recordStreamClosed(requestName, System.nanoTime() - startNanos, LatencyRecord.StreamEnd.CANCELLED);
  }

  @Override
  public void onMessage(Res message) {
    long endMillis = owner.clock.nowMillis();
    long endNanos = System.nanoTime();
    if (startSession.eventLoop().inEventLoop()) {
      // the usual case (the channel runs on the user's loop): no task to allocate per message
      handleMessage(message, endMillis, endNanos);
    } else {
      BridgeAction.later(startSession, () -> handleMessage(message, endMillis, endNanos));
    }
  }

  @Override
  public void onReady() {
    // never inline: the adapter may report it from inside send(), before the user's action is done
    BridgeAction.later(startSession, this::handleReady);
  }

  @Override
  public void onClose(CallFailure failure) {
    long endMillis = owner.clock.nowMillis();
    long endNanos = System.nanoTime();
    BridgeAction.later(startSession, () -> handleClose(failure, endMillis, endNanos));
  }

  private void handleMessage(Res message, long endMillis, long endNanos) {
    if (closed) {
      return;
    }
    received++;
    unawaited++;
    counted.received();
    long fromMillis;
    long fromNanos;
    switch (owner.spec.timePolicy()) {
      case FromLastMessageSent -> {
        fromMillis = lastSentMillis;
        fromNanos = lastSentNanos;
      }
      case FromLastMessageReceived -> {
        fromMillis = lastReceivedMillis;
        fromNanos = lastReceivedNanos;
      }
      default -> {
        fromMillis = startMillis;
        fromNanos = startNanos;
      }
    }
    lastReceivedMillis = endMillis;
    lastReceivedNanos = endNanos;
    Tuple2<Session, Option<Failure>> checked =
        Check$.MODULE$.check(CallResult.success(message), checkSession, owner.messageChecks);
    checkSession = checked._1();
    if (checked._2().isDefined()) {
      failed = true;
      String text = checked._2().get().message();
      timings.failed(fromNanos, endNanos, text);
      owner.log(startSession, groups, requestName, fromMillis, endMillis, KO$.MODULE$, CallResult.OK, text);
    } else {
      timings.ok(fromNanos, endNanos);
      owner.log(startSession, groups, requestName, fromMillis, endMillis, OK$.MODULE$, CallResult.OK, null);
    }
    stream.request(1);
    arrivedIfAwaited();
  }

  private void handleReady() {
    if (whenReady != null && (closed || stream.isReady())) {
      Runnable go = whenReady;
      whenReady = null;
      go.run();
    }
  }

  private void handleClose(CallFailure failure, long endMillis, long endNanos) {
    if (closed) {
      return;
    }
    close(failure == null ? "OK" : failure.message());
    CallResult result;
    if (failure != null) {
      result = CallResult.failure(failure);
    } else if (received == 0 && owner.spec.kind() != StreamKind.BIDI_STREAM) {
      result = new CallResult(null, CallResult.OK, "OK: the server closed the stream without a message");
    } else {
      result = CallResult.success(null);
    }
    if (owner.checksClose) {
      Tuple2<Session, Option<Failure>> checked = Check$.MODULE$.check(result, checkSession, owner.closeChecks);
      checkSession = checked._1();
      if (checked._2().isDefined()) {
        ko(result.status(), checked._2().get().message(), endMillis, endNanos);
      } else if (result.failed()) {
        // an expected failure: one OK response for the close
        owner.latencies.recordOk(requestName, IntendedSend.NONE, startNanos, endNanos);
        owner.log(startSession, groups, requestName, startMillis, endMillis, OK$.MODULE$, result.status(), null);
      }
    } else if (result.failed()) {
      ko(result.status(), result.errorMessage() + ", after " + messages(received) + " received", endMillis, endNanos);
    }
    owner.latencies.recordStreamClosed(
        requestName, endNanos - startNanos, failed ? LatencyRecord.StreamEnd.FAILED : LatencyRecord.StreamEnd.COMPLETED);
    handleReady();
    if (awaited > 0) {
      missWith(endedBefore(awaited));
    }
    if (whenEnded != null) {
      Runnable go = whenEnded;
      whenEnded = null;
      go.run();
    }
  }

  /** No close from the adapter by the deadline and a little more: the bridge ends the stream itself. */
  private void giveUp() {
    if (closed) {
      return;
    }
    stream.cancel("no close by the stream's deadline");
    handleClose(
        new CallFailure("TIMEOUT", "the stream did not end within its deadline of " + owner.timeout.toMillis() + " ms"),
        owner.clock.nowMillis(),
        System.nanoTime());
  }

  private void close(String text) {
    closed = true;
    closeText = text;
    OPEN.decrementAndGet();
    if (backstop != null) {
      backstop.cancel();
    }
  }

  private void ko(String status, String message, long endMillis, long endNanos) {
    failed = true;
    owner.latencies.recordFailedCall(requestName, IntendedSend.NONE, startNanos, endNanos, message);
    owner.log(startSession, groups, requestName, startMillis, endMillis, KO$.MODULE$, status, message);
  }

  /** Cancels the streams of {@code components} that {@code session} still holds (the user is ending). */
  static void cancelAll(Session session, RpcComponents<?, ?> components) {
    for (Object value : scala.jdk.javaapi.CollectionConverters.asJava(session.attributes().values())) {
      if (value instanceof OpenStream<?, ?> stream && stream.owner.components == components) {
        stream.cancelAtExit();
      }
    }
  }

  private static String messages(int count) {
    return count == 1 ? "1 message" : count + " messages";
  }
}
