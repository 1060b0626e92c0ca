#!/usr/bin/env bash
# overhead: see bench/README.md. Options are system properties, e.g. -Dframeworks=grpc,rpcx
set -euo pipefail
cd "$(dirname "$0")/.."
exec mvn -q test-compile exec:java@overhead "$@"
