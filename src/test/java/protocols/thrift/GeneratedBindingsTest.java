package protocols.thrift;

import static org.junit.jupiter.api.Assertions.*;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import org.apache.thrift.TException;
import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TMessage;
import org.apache.thrift.protocol.TMessageType;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.transport.TMemoryBuffer;
import org.apache.thrift.transport.TMemoryInputTransport;
import org.junit.jupiter.api.Test;
import protocols.thrift.calculator.Calculator;

/**
 * The generated code each call runs, bound once: as a lambda where this loader sees the generated
 * classes, else through its method handle; both must write and read exactly the same.
 */
class GeneratedBindingsTest {

  private static final MethodHandles.Lookup PUBLIC = MethodHandles.publicLookup();
  private static final TBinaryProtocol.Factory BINARY = new TBinaryProtocol.Factory();

  private static MethodHandle writeArgsOfAdd() throws ReflectiveOperationException {
    return PUBLIC.findVirtual(
        Calculator.AsyncClient.add_call.class, "write_args", MethodType.methodType(void.class, TProtocol.class));
  }

  private static MethodHandle clientConstructor() throws ReflectiveOperationException {
    return PUBLIC.findConstructor(Calculator.Client.class, MethodType.methodType(void.class, TProtocol.class));
  }

  private static MethodHandle recvAdd() throws ReflectiveOperationException {
    return PUBLIC.findVirtual(Calculator.Client.class, "recv_add", MethodType.methodType(long.class));
  }

  private static byte[] written(GeneratedCalls.WriteArgs writeArgs) throws TException {
    Calculator.AsyncClient.add_call call =
        new Calculator.AsyncClient.add_call(40, 2, null, new Calculator.AsyncClient(BINARY, null, null), BINARY, null);
    TMemoryBuffer buffer = new TMemoryBuffer(64);
    writeArgs.write(call, new TBinaryProtocol(buffer));
    return Arrays.copyOf(buffer.getArray(), buffer.length());
  }

  /** What a server sends back for add: a REPLY whose add_result holds {@code sum}. */
  private static TProtocol replyOfAdd(long sum) throws TException {
    TMemoryBuffer buffer = new TMemoryBuffer(64);
    TProtocol out = new TBinaryProtocol(buffer);
    out.writeMessageBegin(new TMessage("add", TMessageType.REPLY, 0));
    new Calculator.add_result().setSuccess(sum).write(out);
    out.writeMessageEnd();
    return new TBinaryProtocol(new TMemoryInputTransport(Arrays.copyOf(buffer.getArray(), buffer.length())));
  }

  @Test
  void generatedMethodsThisLoaderSeesAreBoundDirectlyNotThroughTheirHandles() throws Exception {
    // the handle path is one lambda class of GeneratedCalls' own per interface: a direct binding is another
    assertNotSame(
        GeneratedCalls.writeArgs(writeArgsOfAdd(), false).getClass(), GeneratedCalls.writeArgs(writeArgsOfAdd(), true).getClass());
    assertNotSame(
        GeneratedCalls.newClient(clientConstructor(), false).getClass(), GeneratedCalls.newClient(clientConstructor(), true).getClass());
    assertNotSame(GeneratedCalls.receive(recvAdd(), false).getClass(), GeneratedCalls.receive(recvAdd(), true).getClass());
  }

  @Test
  void writeArgsThroughItsHandleWritesTheSameBytesAsItsLambda() throws Exception {
    byte[] byLambda = written(GeneratedCalls.writeArgs(writeArgsOfAdd(), true));
    byte[] byHandle = written(GeneratedCalls.writeArgs(writeArgsOfAdd(), false));

    assertTrue(byLambda.length > 0);
    assertArrayEquals(byLambda, byHandle);
  }

  @Test
  void aReplyIsReadAlikeThroughLambdasAndThroughHandles() throws Exception {
    var byLambda = GeneratedCalls.receive(recvAdd(), true);
    var byHandle = GeneratedCalls.receive(recvAdd(), false);

    assertEquals(42L, byLambda.receive(GeneratedCalls.newClient(clientConstructor(), true).create(replyOfAdd(42))));
    assertEquals(42L, byHandle.receive(GeneratedCalls.newClient(clientConstructor(), false).create(replyOfAdd(42))));
  }

  @Test
  void aVoidRecvMethodIsReadAsNull() throws Exception {
    // the shape of the recv_x of an IDL method returning void: no lambda can return its (absent) value
    MethodHandle voidRecv = MethodHandles.empty(MethodType.methodType(void.class, Calculator.Client.class));

    GeneratedCalls.Receive receive = GeneratedCalls.receive(voidRecv, true);

    assertNull(receive.receive(new Calculator.Client(replyOfAdd(0))));
  }
}
