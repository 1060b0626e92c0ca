package protocols.motan;

import static io.gatling.javaapi.core.CoreDsl.*;
import static org.junit.jupiter.api.Assertions.*;
import static protocols.core.check.RpcChecks.*;
import static protocols.motan.MotanDsl.*;

import benchmark.motan.MotanBenchmarkServer;
import benchmark.motan.MotanProvider;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import protocols.motan.Calculator.Greeting;
import protocols.motan.Calculator.Person;
import protocols.testkit.GatlingRun;

/** The protocol calls any Motan service through its ...Async interface, not only the benchmark's. */
class AnyMotanServiceTest {

  static class CalculatorImpl implements Calculator {
    @Override
    public int add(int a, int b) {
      return a + b;
    }

    @Override
    public Greeting greet(Person person) {
      Greeting greeting = new Greeting();
      greeting.text = "hello " + person.name;
      greeting.adult = person.age >= 18;
      return greeting;
    }
  }

  @Test
  void aServiceOfTheUsersOwnIsCalledWithPayloadsFromTheSessionAndChecked() throws Exception {
    try (MotanProvider<Calculator> provider =
        MotanProvider.export(
            Calculator.class, new CalculatorImpl(), MotanProvider.options().group("calc").version("2.0"))) {
      MotanTestSimulation.define(
          sim ->
              sim.setUp(
                      scenario("calculator")
                          .exec(session -> session.set("a", (int) session.userId()))
                          .repeat(5)
                          .on(
                              exec(
                                  motan("add")
                                      .service(CalculatorAsync.class)
                                      .call((CalculatorAsync calculator, int[] numbers) -> calculator.addAsync(numbers[0], numbers[1]), int.class)
                                      .payload(session -> new int[] {session.getInt("a"), 1000})
                                      .check(response((Integer sum) -> sum).saveAs("sum"))
                                      .check(responseThat("sum is a + 1000", (Integer sum) -> sum > 1000)),
                                  motan("greet")
                                      .service(CalculatorAsync.class)
                                      .call(CalculatorAsync::greetAsync, Greeting.class)
                                      .payload(session -> new Person("user" + session.userId(), 30))
                                      .check(response((Greeting g) -> g.text).is(session -> "hello user" + session.userId()))
                                      .check(response((Greeting g) -> g.adult).is(true))))
                          .injectOpen(atOnceUsers(4)))
                  .protocols(motan.target("127.0.0.1:" + provider.port()).group("calc").version("2.0").sharedClients(2))
                  .assertions(global().allRequests().count().is(40L), global().failedRequests().count().is(0L)));

      GatlingRun run = GatlingRun.run(MotanTestSimulation.class, Map.of());

      assertEquals(0, run.exitCode, run.toString());
      assertEquals(20, run.ok("add"));
      assertEquals(20, run.ok("greet"));
    }
  }

  @Test
  void aServiceTheProviderDoesNotExportIsAKoNamingIt() throws Exception {
    try (MotanBenchmarkServer provider = MotanBenchmarkServer.start(0, Duration.ZERO)) {
      MotanTestSimulation.define(
          sim ->
              sim.setUp(
                      scenario("wrong service")
                          .exec(
                              motan("add")
                                  .service(CalculatorAsync.class)
                                  .call((CalculatorAsync calculator, Integer n) -> calculator.addAsync(n, n), Integer.class)
                                  .payload(1))
                          .injectOpen(atOnceUsers(2)))
                  .protocols(motan.target("127.0.0.1:" + provider.port())));

      GatlingRun run = GatlingRun.run(MotanTestSimulation.class, Map.of());

      assertEquals(2, run.ko("add"), run.toString());
      assertTrue(
          run.errors("add").contains("provider not exist serviceKey=default_rpc/protocols.motan.Calculator/1.0"),
          run.errors("add"));
    }
  }

  @Test
  void aDirectRegistryListsTheProviders() throws Exception {
    try (MotanProvider<Calculator> provider =
        MotanProvider.export(Calculator.class, new CalculatorImpl(), MotanProvider.options())) {
      MotanTestSimulation.define(
          sim ->
              sim.setUp(
                      scenario("registry")
                          .exec(
                              motan("add")
                                  .service(CalculatorAsync.class)
                                  .call((CalculatorAsync calculator, Integer n) -> calculator.addAsync(n, 1), Integer.class)
                                  .payload(41)
                                  .check(response((Integer sum) -> sum).is(42)))
                          .injectOpen(atOnceUsers(3)))
                  .protocols(motan.registry("direct://127.0.0.1:" + provider.port()))
                  .assertions(global().failedRequests().count().is(0L)));

      GatlingRun run = GatlingRun.run(MotanTestSimulation.class, Map.of());

      assertEquals(0, run.exitCode, run.toString());
      assertEquals(3, run.ok("add"));
    }
  }
}
