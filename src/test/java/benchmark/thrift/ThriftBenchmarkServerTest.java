package benchmark.thrift;

import static org.junit.jupiter.api.Assertions.*;

import benchmark.BenchmarkMessages;
import benchmark.thrift.gen.BenchmarkMessage;
import benchmark.thrift.gen.Greeter;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.apache.thrift.TSerializer;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.server.TThreadedSelectorServer;
import org.apache.thrift.transport.TNonblockingServerSocket;
import org.apache.thrift.transport.TSocket;
import org.apache.thrift.transport.layered.TFramedTransport;
import org.junit.jupiter.api.Test;

/** The Thrift benchmark server and message, called with Thrift's plain blocking client. */
class ThriftBenchmarkServerTest {

  private static BenchmarkMessage say(ThriftBenchmarkServer server, BenchmarkMessage request) throws Exception {
    try (TFramedTransport transport = new TFramedTransport(new TSocket("127.0.0.1", server.port()))) {
      transport.open();
      return new Greeter.Client(new TBinaryProtocol(transport)).say(request);
    }
  }

  @Test
  void sayAnswersOkAnd100AndEchoesTheRest() throws Exception {
    try (ThriftBenchmarkServer server = ThriftBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO)) {
      BenchmarkMessage reply = say(server, ThriftBenchmarkMessages.request());

      assertEquals("OK", reply.getField1());
      assertEquals(100, reply.getField2());
      assertEquals(BenchmarkMessages.NUMBER, reply.getField3());
      assertEquals(BenchmarkMessages.TEXT, reply.getField129());
      assertTrue(ThriftBenchmarkMessages.isOk(reply));
    }
  }

  @Test
  void everyConnectionOfAThousandsStrongRushIsAnswered() throws Exception {
    // thousands of users connecting within a second wake the selectors more than 512 times with no
    // socket ready: libthrift 0.17 then rebuilds its selectors and used to orphan every idle connection
    int connections = 2000;
    java.util.List<TFramedTransport> transports = new java.util.ArrayList<>();
    try (ThriftBenchmarkServer server = ThriftBenchmarkServer.start("127.0.0.1", 0, Duration.ZERO)) {
      for (int i = 0; i < connections; i++) {
        TSocket socket = new TSocket("127.0.0.1", server.port());
        socket.setTimeout(3_000);
        TFramedTransport transport = new TFramedTransport(socket);
        transport.open();
        transports.add(transport);
      }
      for (int i = 0; i < transports.size(); i++) {
        try {
          new Greeter.Client(new TBinaryProtocol(transports.get(i))).say(ThriftBenchmarkMessages.request());
        } catch (org.apache.thrift.TException e) {
          fail("connection " + (i + 1) + " of " + connections + " got no answer: " + e);
        }
      }
    } finally {
      transports.forEach(TFramedTransport::close);
    }
  }

  @Test
  void acceptedConnectionsWaitForTheirSelectorThreadInAQueueAsDeepAsTheAcceptBacklog() throws Exception {
    // libthrift's default of 4 made the accept thread wait a selector pass per 4 connections: at 5000
    // users replacing each other, thousands queued in the kernel and their first calls timed out
    try (TNonblockingServerSocket socket =
        new TNonblockingServerSocket(new InetSocketAddress("127.0.0.1", 0))) {
      TThreadedSelectorServer.Args args = ThriftBenchmarkServer.selectorArgs(socket);

      assertEquals(ThriftBenchmarkServer.ACCEPT_BACKLOG, args.getAcceptQueueSizePerThread());
      assertEquals(TThreadedSelectorServer.Args.AcceptPolicy.FAST_ACCEPT, args.getAcceptPolicy());
    }
  }

  @Test
  void theServiceTimeDelaysEveryReply() throws Exception {
    try (ThriftBenchmarkServer server =
        ThriftBenchmarkServer.start("127.0.0.1", 0, Duration.ofMillis(150))) {
      long start = System.nanoTime();
      say(server, ThriftBenchmarkMessages.request());
      assertTrue(System.nanoTime() - start >= 150_000_000L, "replied before its service time");
    }
  }

  @Test
  void theRequestSetsEveryFieldButField5AsTheSeedDoes() throws Exception {
    BenchmarkMessage request = ThriftBenchmarkMessages.request();
    long set =
        java.util.Arrays.stream(BenchmarkMessage._Fields.values()).filter(request::isSet).count();

    assertEquals(39, set);
    assertFalse(request.isSetField5());
    // the Thrift binary encoding of the seed's request: an i64 of default requiredness is always
    // written, so field5 goes on the wire as 0 (40 fields), as with the seed's Thrift IDL
    assertEquals(691, new TSerializer(new TBinaryProtocol.Factory()).serialize(request).length);
  }

  @Test
  void requestsAreCopiesSoAUserCannotChangeAnotherUsersRequest() {
    ThriftBenchmarkMessages.request().setField1("changed");
    assertEquals(BenchmarkMessages.TEXT, ThriftBenchmarkMessages.request().getField1());
  }
}
