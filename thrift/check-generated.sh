#!/usr/bin/env bash
# Fails when the committed Java sources of the Thrift IDL files differ from what the Thrift compiler
# generates from them now (an IDL edited without running thrift/generate.sh, or generated code edited
# by hand). Needs the Thrift compiler 0.17.0 (Debian: apt-get install thrift-compiler).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
FRESH="$(mktemp -d)"
trap 'rm -rf "$FRESH"' EXIT

"$ROOT/thrift/generate.sh" "$FRESH"

status=0
for package in src/main/java/benchmark/thrift/gen src/test/java/protocols/thrift/calculator; do
  if ! diff -ru "$ROOT/$package" "$FRESH/$package" >"$FRESH/diff.txt" 2>&1; then
    echo "check-generated: $package is out of step with its .thrift file:" >&2
    head -n 40 "$FRESH/diff.txt" >&2
    status=1
  fi
done
if [ "$status" -ne 0 ]; then
  echo "check-generated: run thrift/generate.sh and commit the result" >&2
  exit 1
fi
echo "check-generated: the generated Thrift sources match thrift/benchmark.thrift and src/test/thrift/calculator.thrift"
