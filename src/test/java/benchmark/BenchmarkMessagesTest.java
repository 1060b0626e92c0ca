package benchmark;

import static org.junit.jupiter.api.Assertions.*;

import benchmark.pb.BenchmarkMessage;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class BenchmarkMessagesTest {

  /** The payload of the benchmark request frame rpcx's own Go encoder produced (reference vector 1). */
  private static final String GO_CLIENT_REQUEST =
      "0a36e8aeb8e5a49ae5be80e4ba8be59ca8e79cbce5898de4b880e5b995e4b880e5b995efbc8ce58f98e79a84e982a3e9babce6a8a1e7b38a"
          + "10a08d0618a08d062236e8aeb8e5a49ae5be80e4ba8be59ca8e79cbce5898de4b880e5b995e4b880e5b995efbc8ce58f98e79a84e982a3e9babce6a8a1e7b38a"
          + "30a08d063a36e8aeb8e5a49ae5be80e4ba8be59ca8e79cbce5898de4b880e5b995e4b880e5b995efbc8ce58f98e79a84e982a3e9babce6a8a1e7b38a"
          + "4a36e8aeb8e5a49ae5be80e4ba8be59ca8e79cbce5898de4b880e5b995e4b880e5b995efbc8ce58f98e79a84e982a3e9babce6a8a1e7b38a"
          + "6001680170018001a08d06880101920136e8aeb8e5a49ae5be80e4ba8be59ca8e79cbce5898de4b880e5b995e4b880e5b995efbc8ce58f98e79a84e982a3e9babce6a8a1e7b38a"
          + "b001a08d06b801a08d06c00101c801a08d06e801a08d06f00101d80301e003a08d069804a08d06a004a08d06f00401800501880501a006a08d06a806a08d06"
          + "b20636e8aeb8e5a49ae5be80e4ba8be59ca8e79cbce5898de4b880e5b995e4b880e5b995efbc8ce58f98e79a84e982a3e9babce6a8a1e7b38a"
          + "ba0636e8aeb8e5a49ae5be80e4ba8be59ca8e79cbce5898de4b880e5b995e4b880e5b995efbc8ce58f98e79a84e982a3e9babce6a8a1e7b38a"
          + "c006a08d068008a08d068a0836e8aeb8e5a49ae5be80e4ba8be59ca8e79cbce5898de4b880e5b995e4b880e5b995efbc8ce58f98e79a84e982a3e9babce6a8a1e7b38a"
          + "9008a08d069808a08d06b009a08d06f810a08d068011a08d06c011a08d06";

  @Test
  void theSeedRequestEncodesTo581Bytes() {
    assertEquals(581, BenchmarkMessages.request().getSerializedSize());
  }

  @Test
  void theSeedRequestEncodesExactlyAsTheGoClientDoes() {
    assertEquals(GO_CLIENT_REQUEST, HexFormat.of().formatHex(BenchmarkMessages.request().toByteArray()));
  }

  @Test
  void theServerRuleSetsField1AndField2AndEncodesTo527Bytes() {
    BenchmarkMessage reply = BenchmarkMessages.reply(BenchmarkMessages.request());

    assertEquals("OK", reply.getField1());
    assertEquals(100, reply.getField2());
    assertEquals(527, reply.getSerializedSize());
    assertTrue(BenchmarkMessages.isOk(reply));
  }

  @Test
  void theServerRuleOnBytesGivesTheSameReply() {
    byte[] reply = BenchmarkMessages.reply(BenchmarkMessages.request().toByteArray());

    assertArrayEquals(BenchmarkMessages.reply(BenchmarkMessages.request()).toByteArray(), reply);
  }

  @Test
  void theServerRuleRejectsBytesThatAreNotAMessageNamingWhatItGot() {
    IllegalArgumentException error =
        assertThrows(IllegalArgumentException.class, () -> BenchmarkMessages.reply(new byte[] {(byte) 0xff, 1, 2}));

    assertTrue(error.getMessage().startsWith("expected an encoded BenchmarkMessage, got 3 bytes"), error.getMessage());
  }
}
