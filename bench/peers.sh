#!/usr/bin/env bash
# peers: see bench/README.md. Options are system properties, e.g. -Dpeers=ghz,grpc-java,rpcx -Dlevels=100,1000
set -euo pipefail
cd "$(dirname "$0")/.."
exec mvn -q test-compile exec:java@peers "$@"
