// Command rpcx-benchmark-client calls an rpcx benchmark server with rpcx's own Go client: Hello.Say with
// the seed's 581-byte protobuf message from -c goroutines in a closed loop (each calls again as soon as
// its reply arrives), then one heartbeat, and with -check-errors one call of an unknown method.
//
// Either -n calls in all:
//
//	go run ./cmd/rpcx-benchmark-client -s 127.0.0.1:8972 -c 10 -n 1000
//
// or for a duration, after a warm-up whose calls are not counted, with the goroutines sharing
// -connections connections (default: one each), the figures also written as JSON:
//
//	go run ./cmd/rpcx-benchmark-client -s 127.0.0.1:8972 -c 100 -connections 4 -warmup 5s -d 20s -json out.json
//
// It prints one result line per step and exits 0 only when every step succeeded:
//
//	calls: 1000 ok, 0 failed in 120ms (8333 calls/s)
//	latency: p50 95µs, p99 310µs
//	heartbeat: ok
//	unknown method: error "rpcx: can't find method Nope"
//
// The -json file has the form of the Java side's rpc-latency.json (latencies in microseconds):
// {"unit": "microseconds", "requests": {"Say": {"count", "ok", "ko", "throughput", "min", "mean", "p50",
// "p90", "p99", "p999", "max"}}}, so that the bench commands read both alike.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
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
	concurrency := flag.Int("c", 1, "goroutines calling concurrently")
	connections := flag.Int("connections", 0, "connections the goroutines share (0: one per goroutine)")
	total := flag.Int("n", 100, "calls in all (without -d)")
	duration := flag.Duration("d", 0, "call for this long instead of -n calls, for example 20s")
	warmup := flag.Duration("warmup", 0, "with -d: call for this long first, not counted")
	jsonOut := flag.String("json", "", "write the measured figures to this file as JSON")
	timeout := flag.Duration("timeout", 5*time.Second, "timeout of every call")
	gzip := flag.Bool("gzip", false, "gzip payloads over 1024 bytes")
	checkErrors := flag.Bool("check-errors", false, "also call Hello.Nope and expect rpcx's error reply")
	flag.Parse()
	log.SetDummyLogger()

	switch {
	case *concurrency < 1:
		usage("-c %d: expected at least 1 goroutine", *concurrency)
	case *connections < 0 || *connections > *concurrency:
		usage("-connections %d: expected 0 (one per goroutine) up to -c (%d)", *connections, *concurrency)
	case *duration < 0 || *warmup < 0:
		usage("-d %s, -warmup %s: expected durations of 0 or more", *duration, *warmup)
	case *duration == 0 && *warmup > 0:
		usage("-warmup %s: expected only with -d (a duration run)", *warmup)
	case *duration == 0 && *total < *concurrency:
		usage("-n %d: expected at least -c (%d) calls", *total, *concurrency)
	}
	option := client.DefaultOption
	option.SerializeType = protocol.ProtoBuffer
	option.ConnectTimeout = *timeout
	if *gzip {
		option.CompressType = protocol.Gzip
	}

	if *connections == 0 {
		*connections = *concurrency
	}
	clients := make([]*client.Client, *connections)
	for i := range clients {
		c := client.NewClient(option) // safe for concurrent calls: they are multiplexed by sequence number
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
	latencies := make([][]int64, *concurrency) // µs of each counted OK call, one slice per goroutine
	var wg sync.WaitGroup
	start := time.Now()
	measuredFrom := start.Add(*warmup)
	end := measuredFrom.Add(*duration)
	for g := 0; g < *concurrency; g++ {
		calls := *total / *concurrency
		if g < *total%*concurrency {
			calls++
		}
		wg.Add(1)
		go func(g int, c *client.Client, calls int) {
			defer wg.Done()
			for j := 0; ; j++ {
				sent := time.Now()
				if (*duration == 0 && j >= calls) || (*duration > 0 && !sent.Before(end)) {
					return
				}
				reply := &pb.BenchmarkMessage{}
				ctx, cancel := context.WithTimeout(context.Background(), *timeout)
				err := c.Call(ctx, "Hello", "Say", request, reply)
				cancel()
				if sent.Before(measuredFrom) {
					continue // a warm-up call
				}
				if err == nil && reply.GetField1() == "OK" && reply.GetField2() == 100 {
					ok.Add(1)
					latencies[g] = append(latencies[g], time.Since(sent).Microseconds())
					continue
				}
				failed.Add(1)
				if err == nil {
					err = fmt.Errorf("unexpected reply field1=%q field2=%d", reply.GetField1(), reply.GetField2())
				}
				firstError.CompareAndSwap(nil, err.Error())
			}
		}(g, clients[g%len(clients)], calls)
	}
	wg.Wait()
	elapsed := time.Since(measuredFrom) // calls started before the end finish after it: the window includes them
	figures := summarize(slices.Concat(latencies...), ok.Load(), failed.Load(), elapsed)
	fmt.Printf("calls: %d ok, %d failed in %s (%.0f calls/s)\n",
		ok.Load(), failed.Load(), elapsed.Round(time.Millisecond), figures.Throughput)
	if *duration > 0 {
		fmt.Printf("latency: p50 %dµs, p99 %dµs\n", figures.P50, figures.P99)
	}
	success := failed.Load() == 0
	if e := firstError.Load(); e != nil {
		fmt.Printf("first failure: %s\n", e)
	}
	if *jsonOut != "" {
		if err := writeJSON(*jsonOut, figures); err != nil {
			fmt.Printf("json: failed: %v\n", err)
			success = false
		}
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

func usage(format string, args ...any) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(2)
}

// Figures are the measured calls' count, throughput and latencies (µs), named as in rpc-latency.json.
type Figures struct {
	Count      int64   `json:"count"`
	OK         int64   `json:"ok"`
	KO         int64   `json:"ko"`
	Throughput float64 `json:"throughput"`
	Min        int64   `json:"min"`
	Mean       float64 `json:"mean"`
	P50        int64   `json:"p50"`
	P90        int64   `json:"p90"`
	P99        int64   `json:"p99"`
	P999       int64   `json:"p999"`
	Max        int64   `json:"max"`
}

func summarize(micros []int64, ok, failed int64, elapsed time.Duration) Figures {
	f := Figures{Count: ok + failed, OK: ok, KO: failed}
	if elapsed > 0 {
		f.Throughput = float64(ok) / elapsed.Seconds()
	}
	if len(micros) == 0 {
		return f
	}
	slices.Sort(micros)
	var sum int64
	for _, m := range micros {
		sum += m
	}
	// the value at or below which p percent of the calls fall (nearest rank), as HdrHistogram reports it
	at := func(p float64) int64 {
		rank := int(math.Ceil(p / 100 * float64(len(micros))))
		return micros[max(rank, 1)-1]
	}
	f.Min, f.Max = micros[0], micros[len(micros)-1]
	f.Mean = float64(sum) / float64(len(micros))
	f.P50, f.P90, f.P99, f.P999 = at(50), at(90), at(99), at(99.9)
	return f
}

func writeJSON(path string, f Figures) error {
	body, err := json.Marshal(map[string]any{"unit": "microseconds", "requests": map[string]Figures{"Say": f}})
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(body, '\n'), 0o644)
}
