#!/usr/bin/env python3
"""CPU samples of a JFR recording, aggregated: the hottest frames (self) and the hottest of ours and
Gatling's (inclusive). Usage: bench/jfr-top.py x.jfr [how-many]   (needs the JDK's `jfr` on PATH)"""
import collections, re, subprocess, sys

if len(sys.argv) < 2:
    sys.exit("usage: bench/jfr-top.py recording.jfr [how-many]")
top = int(sys.argv[2]) if len(sys.argv) > 2 else 25
text = subprocess.run(["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", "64", sys.argv[1]],
                      check=True, capture_output=True, text=True).stdout
self_counts, inclusive = collections.Counter(), collections.Counter()
samples = 0
for event in text.split("jdk.ExecutionSample")[1:]:
    frames = [re.sub(r"\s+line:.*$", "", f.strip()) for f in re.findall(r"^\s+(\S.*\))\s+line:.*$", event, re.M)]
    if not frames:
        continue
    samples += 1
    self_counts[frames[0]] += 1
    for f in set(frames):
        if f.startswith(("protocols.", "io.gatling.", "benchmark.")):
            inclusive[f] += 1
print(f"{samples} CPU samples of {sys.argv[1]}")
print(f"\n-- top {top} frames, self --")
for f, n in self_counts.most_common(top):
    print(f"{100.0 * n / samples:6.1f} %  {f}")
print(f"\n-- top {top} frames of protocols., benchmark., io.gatling., inclusive --")
for f, n in inclusive.most_common(top):
    print(f"{100.0 * n / samples:6.1f} %  {f}")
