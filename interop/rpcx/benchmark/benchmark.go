// Package benchmark holds what the Go server and client share: the seed's request and the server rule,
// the same as the Java side's benchmark.BenchmarkMessages.
package benchmark

import (
	"context"
	"time"

	"google.golang.org/protobuf/proto"

	"gatlingrpc/interop/rpcx/pb"
)

// Text is every string field of the request.
const Text = "许多往事在眼前一幕一幕，变的那麼模糊"

// Number is every integer field of the request.
const Number = 100000

// Request is the seed's request: every string Text, every integer Number, every bool true, field5
// empty; 581 bytes encoded.
func Request() *pb.BenchmarkMessage {
	s := proto.String(Text)
	i := proto.Int32(Number)
	t := proto.Bool(true)
	return &pb.BenchmarkMessage{
		Field1: s, Field9: s, Field18: s, Field80: t, Field81: t,
		Field2: i, Field3: i, Field280: i, Field6: i, Field22: proto.Int64(Number),
		Field4: s, Field59: t, Field7: s, Field16: i, Field130: i,
		Field12: t, Field17: t, Field13: t, Field14: t,
		Field104: i, Field100: i, Field101: i, Field102: s, Field103: s,
		Field29: i, Field30: t, Field60: i, Field271: i, Field272: i,
		Field150: i, Field23: i, Field24: t, Field25: i, Field78: t,
		Field67: i, Field68: i, Field128: i, Field129: s, Field131: i,
	}
}

// Hello is the benchmark service, registered under the name "Hello".
type Hello struct {
	// ServiceTime delays every reply (0: none).
	ServiceTime time.Duration
}

// Say applies the server rule: the request, with field1 "OK" and field2 100.
func (h *Hello) Say(ctx context.Context, args *pb.BenchmarkMessage, reply *pb.BenchmarkMessage) error {
	proto.Reset(reply)
	proto.Merge(reply, args)
	reply.Field1 = proto.String("OK")
	reply.Field2 = proto.Int32(100)
	if h.ServiceTime > 0 {
		select {
		case <-time.After(h.ServiceTime):
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
