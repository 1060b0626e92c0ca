package protocols.motan;

import com.weibo.api.motan.rpc.ResponseFuture;

/** {@link Calculator} by Motan's asynchronous convention, as a Motan user writes it. */
public interface CalculatorAsync extends Calculator {

  ResponseFuture addAsync(int a, int b);

  ResponseFuture greetAsync(Person person);
}
