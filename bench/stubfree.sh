#!/usr/bin/env bash
# stubfree: see bench/README.md. Options are system properties, e.g. -Dlevel=100 -Dpairs=3 -Dhold=20s
set -euo pipefail
cd "$(dirname "$0")/.."
exec mvn -q test-compile exec:java@stubfree "$@"
