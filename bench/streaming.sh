#!/usr/bin/env bash
# streaming: see bench/README.md. Options are system properties, e.g. -Dlevels=100 -Dmessages=100
set -euo pipefail
cd "$(dirname "$0")/.."
exec mvn -q test-compile exec:java@streaming "$@"
