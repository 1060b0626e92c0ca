// A second service, unrelated to the benchmark, for tests only: it shows the thrift protocol calls any
// generated service, and gives the fault tests a declared exception, an undeclared one and a slow call.
// Generated Java: src/test/java/protocols/thrift/calculator (thrift/generate.sh, thrift/check-generated.sh).

namespace java protocols.thrift.calculator

exception DivisionByZero {
  1: i64 dividend
}

service Calculator {
  // two arguments: a call needs a lambda, not just a method reference
  i64 add(1: i64 a, 2: i64 b),

  // throws the exception the IDL declares when divisor is 0
  i64 divide(1: i64 dividend, 2: i64 divisor) throws (1: DivisionByZero divisionByZero),

  // the handler throws an exception the IDL does not declare: the client gets a TApplicationException
  i64 crash(1: string reason),

  // answers a after millis milliseconds, without holding a server thread
  i64 echoLater(1: i64 a, 2: i32 millis)
}
