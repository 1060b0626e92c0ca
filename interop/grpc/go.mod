// Builds grpc-go's route_guide and features/reflection example servers for the tests
// (protocols.grpc.RouteGuideTest, GrpcReflectionGoTest):
// go build google.golang.org/grpc/examples/route_guide/server. The examples module has replace
// directives, so go install refuses it; required from here, it builds.
module gatlingrpc/interop/grpc

go 1.26.0

tool (
	google.golang.org/grpc/examples/features/reflection/server
	google.golang.org/grpc/examples/route_guide/server
)

require (
	golang.org/x/net v0.60.0 // indirect
	golang.org/x/sys v0.48.0 // indirect
	golang.org/x/text v0.42.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20260817212433-ac3dfec99bb1 // indirect
	google.golang.org/grpc v1.85.0 // indirect
	google.golang.org/grpc/examples v0.0.0-20260825154716-030ee8becb20 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)
