"""The test-only Calculator service (src/test/thrift/calculator.thrift) on Python's own Thrift library.

Python code for the IDL is generated at test time by the Thrift compiler into --gen (not committed).
Prints "listening on 127.0.0.1:PORT" once it accepts connections; serves until killed, at most --lifetime s.
"""
import argparse
import os
import sys
import threading
import time


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--gen", required=True, help="folder holding the generated 'calculator' package")
    parser.add_argument("--transport", choices=["framed", "buffered"], default="buffered")
    parser.add_argument("--protocol", choices=["binary", "compact"], default="binary")
    parser.add_argument("--multiplexed", default=None, help="register the service under this name")
    parser.add_argument("--lifetime", type=float, default=120.0)
    args = parser.parse_args()
    sys.path.insert(0, args.gen)

    from calculator import Calculator
    from calculator.ttypes import DivisionByZero
    from thrift.TMultiplexedProcessor import TMultiplexedProcessor
    from thrift.protocol import TBinaryProtocol, TCompactProtocol
    from thrift.server import TServer
    from thrift.transport import TSocket, TTransport

    class Handler:
        def add(self, a, b):
            return a + b

        def divide(self, dividend, divisor):
            if divisor == 0:
                raise DivisionByZero(dividend=dividend)
            return dividend // divisor

        def crash(self, reason):
            raise RuntimeError(reason)

        def echoLater(self, a, millis):
            time.sleep(millis / 1000.0)
            return a

    processor = Calculator.Processor(Handler())
    if args.multiplexed:
        multiplexed = TMultiplexedProcessor()
        multiplexed.registerProcessor(args.multiplexed, processor)
        processor = multiplexed
    transports = (TTransport.TFramedTransportFactory() if args.transport == "framed"
                  else TTransport.TBufferedTransportFactory())
    protocols = (TCompactProtocol.TCompactProtocolFactory() if args.protocol == "compact"
                 else TBinaryProtocol.TBinaryProtocolFactory())
    socket = TSocket.TServerSocket(host="127.0.0.1", port=0)
    socket.listen()
    socket.listen = lambda: None  # serve() would listen again, on another free port
    port = socket.handle.getsockname()[1]
    server = TServer.TThreadedServer(processor, socket, transports, protocols, daemon=True)
    threading.Timer(args.lifetime, lambda: os._exit(0)).start()  # never outlives a stuck test
    print("listening on 127.0.0.1:%d" % port, flush=True)
    server.serve()


if __name__ == "__main__":
    main()
