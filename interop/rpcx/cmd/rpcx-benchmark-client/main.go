// Command rpcx-benchmark-client calls an rpcx benchmark server with rpcx's own Go client: -n calls of
// Hello.Say with the seed's 581-byte protobuf message from -c goroutines, each on its own connection,
// then one heartbeat, and with -check-errors one call of an unknown method.
//
//	go run ./cmd/rpcx-benchmark-client -s 127.0.0.1:8972 -c 10 -n 1000
//
// It prints one result line per step and exits 0 only when every step succeeded:
//
//	calls: 1000 ok, 0 failed in 120ms (8333 calls/s)
//	heartbeat: ok
//	unknown method: error "rpcx: can't find method Nope"
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/smallnest/rpcx/client"
	"github.com/smallnest/rpcx/log"
	"github.com/smallnest/rpcx/protocol"

	"gatlingrpc/interop/rpcx/benchmark"
	"gatlingrpc/interop/rpcx/pb"
)

func main() {
	addr := flag.String("s", "127.0.0.1:8972", "server address host:port")
	concurrency := flag.Int("c", 1, "goroutines, each with its own connection")
	total := flag.Int("n", 100, "calls in all")
	timeout := flag.Duration("timeout", 5*time.Second, "timeout of every call")
	gzip := flag.Bool("gzip", false, "gzip payloads over 1024 bytes")
	checkErrors := flag.Bool("check-errors", false, "also call Hello.Nope and expect rpcx's error reply")
	flag.Parse()
	log.SetDummyLogger()

	if *concurrency < 1 || *total < *concurrency {
		fmt.Fprintln(os.Stderr, "expected -c >= 1 and -n >= -c")
		os.Exit(2)
	}
	option := client.DefaultOption
	option.SerializeType = protocol.ProtoBuffer
	option.ConnectTimeout = *timeout
	if *gzip {
		option.CompressType = protocol.Gzip
	}

	clients := make([]*client.Client, *concurrency)
	for i := range clients {
		c := client.NewClient(option)
		if err := c.Connect("tcp", *addr); err != nil {
			fmt.Printf("connect: failed: %v\n", err)
			os.Exit(1)
		}
		defer c.Close()
		clients[i] = c
	}

	request := benchmark.Request()
	var ok, failed atomic.Int64
	var firstError atomic.Value
	var wg sync.WaitGroup
	start := time.Now()
	for i, c := range clients {
		calls := *total / *concurrency
		if i < *total%*concurrency {
			calls++
		}
		wg.Add(1)
		go func(c *client.Client, calls int) {
			defer wg.Done()
			for j := 0; j < calls; j++ {
				reply := &pb.BenchmarkMessage{}
				ctx, cancel := context.WithTimeout(context.Background(), *timeout)
				err := c.Call(ctx, "Hello", "Say", request, reply)
				cancel()
				if err == nil && reply.GetField1() == "OK" && reply.GetField2() == 100 {
					ok.Add(1)
					continue
				}
				failed.Add(1)
				if err == nil {
					err = fmt.Errorf("unexpected reply field1=%q field2=%d", reply.GetField1(), reply.GetField2())
				}
				firstError.CompareAndSwap(nil, err.Error())
			}
		}(c, calls)
	}
	wg.Wait()
	elapsed := time.Since(start)
	fmt.Printf("calls: %d ok, %d failed in %s (%.0f calls/s)\n",
		ok.Load(), failed.Load(), elapsed.Round(time.Millisecond), float64(ok.Load())/elapsed.Seconds())
	success := failed.Load() == 0
	if e := firstError.Load(); e != nil {
		fmt.Printf("first failure: %s\n", e)
	}

	// a heartbeat: empty service path and method; rpcx sends it as MsgPack and expects it echoed
	sent := time.Now().UnixNano()
	var echoed int64
	ctx, cancel := context.WithTimeout(context.Background(), *timeout)
	err := clients[0].Call(ctx, "", "", &sent, &echoed)
	cancel()
	switch {
	case err != nil:
		fmt.Printf("heartbeat: failed: %v\n", err)
		success = false
	case echoed != sent:
		fmt.Printf("heartbeat: failed: sent %d, echoed %d\n", sent, echoed)
		success = false
	default:
		fmt.Println("heartbeat: ok")
	}

	if *checkErrors {
		ctx, cancel := context.WithTimeout(context.Background(), *timeout)
		err := clients[0].Call(ctx, "Hello", "Nope", request, &pb.BenchmarkMessage{})
		cancel()
		if err == nil {
			fmt.Println("unknown method: failed: the call succeeded")
			success = false
		} else {
			fmt.Printf("unknown method: error %q\n", err.Error())
		}
	}

	if !success {
		os.Exit(1)
	}
}
