#!/bin/bash
# written for the 2026-12-03 JIT warm-up check (BENCHMARKS.md); run beside bench/streaming.sh, stop with: touch /tmp/sampler.stop
# every 2 s: per thread of the bare/gatling JVMs: epoch role tid comm utime stime
while [ ! -f /tmp/sampler.stop ]; do
  now=$(date +%s)
  for p in $(pgrep -f 'GrpcStreamLoop|GrpcStreamingSimulation'); do
    cmd=$(tr '\0' ' ' < /proc/$p/cmdline 2>/dev/null)
    case "$cmd" in *GrpcStreamLoop*) role=bare;; *GrpcStreamingSimulation*) role=gatling;; *) continue;; esac
    for t in /proc/$p/task/*; do
      comm=$(tr ' ' '_' < $t/comm 2>/dev/null)
      st=$(sed 's/.*) //' $t/stat 2>/dev/null | awk '{print $12, $13}')
      echo "$now $role ${t##*/} $comm $st"
    done
  done
  sleep 2
done
