// Command rpcx-benchmark-server is the seed's rpcx benchmark server on the real rpcx (Go): service
// "Hello", method "Say" (field1 "OK", field2 100), protobuf or any other codec rpcx knows.
//
//	go run ./cmd/rpcx-benchmark-server -addr 127.0.0.1:8972 [-service-time 0]
//
// Once it listens it prints one line "listening on HOST:PORT" (useful with port 0).
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/smallnest/rpcx/log"
	"github.com/smallnest/rpcx/server"

	"gatlingrpc/interop/rpcx/benchmark"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8972", "address to listen on (port 0: a free one)")
	serviceTime := flag.Duration("service-time", 0, "service time of every call, for example 10ms (0: none)")
	quiet := flag.Bool("quiet", true, "log only errors of rpcx itself")
	flag.Parse()

	if *quiet {
		log.SetDummyLogger()
	}
	s := server.NewServer()
	if err := s.RegisterName("Hello", &benchmark.Hello{ServiceTime: *serviceTime}, ""); err != nil {
		fmt.Fprintln(os.Stderr, "register Hello:", err)
		os.Exit(2)
	}

	failed := make(chan error, 1)
	go func() { failed <- s.Serve("tcp", *addr) }()

	deadline := time.Now().Add(10 * time.Second)
	for s.Address() == nil {
		select {
		case err := <-failed:
			fmt.Fprintf(os.Stderr, "cannot serve on %s: %v\n", *addr, err)
			os.Exit(1)
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(os.Stderr, "not listening on %s after 10s\n", *addr)
			os.Exit(1)
		}
	}
	fmt.Printf("listening on %s (service time %s)\n", s.Address(), *serviceTime)

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, os.Interrupt, syscall.SIGTERM)
	select {
	case <-signals:
		s.Close()
	case err := <-failed:
		if err != nil && err != server.ErrServerClosed {
			fmt.Fprintln(os.Stderr, "server stopped:", err)
			os.Exit(1)
		}
	}
}
