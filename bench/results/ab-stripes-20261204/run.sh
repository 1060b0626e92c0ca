#!/usr/bin/env bash
# The µs record's stripes side by side on one build: -Dgatlingrpc.recordStripes=1 (one recorder, as
# before 346d04f) then the default (a stripe per event loop), 3 alternating pairs, Thrift at 1000 users.
set -euo pipefail
cd "$(dirname "$0")/../../.."
here=bench/results/ab-stripes-20261204
for pair in 1 2 3; do
  for stripes in 1 default; do
    extra=(); [ "$stripes" = 1 ] && extra=(-Dgatlingrpc.recordStripes=1)
    bench/overhead.sh -Dframeworks=thrift -Dlevels=1000 -Druns=1 -Dhold=10s "${extra[@]}" > /tmp/ab-stripes-$pair-$stripes.log 2>&1
    out=$(ls -td bench/results/overhead-* | head -1)
    cp "$out/overhead.json" "$here/pair$pair-stripes$stripes.json"
    cp "$out/overhead.md" "$here/pair$pair-stripes$stripes.md"
    echo "pair $pair stripes $stripes: $out $(date -u +%H:%M)"
  done
done
