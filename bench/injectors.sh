#!/usr/bin/env bash
# injectors: one injector JVM beside the same load split over -Dinjectors JVMs and merged; see bench/README.md
set -euo pipefail
cd "$(dirname "$0")/.."
exec mvn -q test-compile exec:java@injectors "$@"
