#!/bin/sh
# Regenerates pb/benchmark.pb.go from the project's proto/benchmark.proto (the same message the Java
# side uses). The generated file is committed, as Go modules expect; run this after changing the proto.
#
# Needs protoc (Maven downloads it: mvn -q compile, or set PROTOC) and protoc-gen-go of the same
# version as google.golang.org/protobuf in go.mod:
#   go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.4
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
protoc=${PROTOC:-$(ls "$HOME"/.m2/repository/com/google/protobuf/protoc/4.33.5/protoc-4.33.5-*.exe 2>/dev/null | head -n 1)}
if [ -z "$protoc" ] || [ ! -e "$protoc" ]; then
  echo "gen.sh: protoc not found; run 'mvn -q compile' once (it downloads protoc 4.33.5) or set PROTOC" >&2
  exit 1
fi
[ -x "$protoc" ] || chmod +x "$protoc"
gobin=$(go env GOPATH)/bin
PATH="$gobin:$PATH"
command -v protoc-gen-go >/dev/null || {
  echo "gen.sh: protoc-gen-go not found; go install google.golang.org/protobuf/cmd/protoc-gen-go@v1.36.4" >&2
  exit 1
}
"$protoc" --proto_path="$root/proto" \
  --go_out="$here" \
  --go_opt=module=gatlingrpc/interop/rpcx \
  --go_opt=Mbenchmark.proto=gatlingrpc/interop/rpcx/pb \
  "$root/proto/benchmark.proto"
echo "generated $here/pb/benchmark.pb.go"
