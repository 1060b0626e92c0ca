#!/usr/bin/env bash
# pacing: the rate mode's open model against paced users (pool sized from the rate and the timeout),
# alternating open, paced, open, paced… in fresh JVMs; the record's cpuPerCall and late sends per run.
# usage: bench/pacing.sh [rate=4000] [pairs=3] [simulations=InjectorFloorSimulation,RpcxSimulation,GrpcSimulation] [hold s=10]
# InjectorFloorSimulation's in-memory framework leaves the injector's own cost; the others' embedded
# server runs in the same JVM, so their cpuPerCall is client plus server.
set -euo pipefail
cd "$(dirname "$0")/.."
rate=${1:-4000}; pairs=${2:-3}; simulations=${3:-InjectorFloorSimulation,RpcxSimulation,GrpcSimulation}; hold=${4:-10}
out=bench/results/pacing-$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$out"
echo "start $(date -u +%FT%TZ), load average: $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$out/load.txt"
mvn -q test-compile
for i in $(seq 1 "$pairs"); do
  for sim in ${simulations//,/ }; do
    for pacing in open paced; do
      echo "pair $i: $sim $pacing"
      touch "$out/.started"  # removed at the end
      # a run the injector could not keep exits non-zero: its figures are still read below
      mvn -q gatling:test -Dsimulation="$sim" -Drate="$rate" -Dramp=0 -Dwarmup=3 -Dhold="$hold" -Dpacing="$pacing" \
        > "$out/$i-$sim-$pacing.log" 2>&1 || true
      # the plugin's results folder cannot be set from the command line: move this run's folder here
      mkdir -p "$out/$i-$sim-$pacing"
      find target/gatling -mindepth 1 -maxdepth 1 -type d -newer "$out/.started" -exec mv {} "$out/$i-$sim-$pacing/" \;
    done
  done
done
rm -f "$out/.started"
echo "end $(date -u +%FT%TZ), load average: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$out/load.txt"
python3 - "$out" "$rate" "$pairs" "$simulations" <<'PY' | tee "$out/summary.md"
import glob, json, os, statistics, sys
out, rate, pairs, simulations = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4].split(",")
print(f"# open model against paced users at {rate} calls/s ({pairs} alternating pairs)\n")
print(open(os.path.join(out, "load.txt")).read().replace("\n", "  \n"))
print("cpuPerCall (µs, the whole JVM) of the measured `Say`, late sends, achieved rate, KO\n")
for sim in simulations:
    print(f"| {sim} | " + " | ".join(f"pair {i}" for i in range(1, pairs + 1)) + " |")
    print("|---|" + "---|" * pairs)
    cpu = {}
    for pacing in ("open", "paced"):
        cells = []
        for i in range(1, pairs + 1):
            found = glob.glob(os.path.join(out, f"{i}-{sim}-{pacing}", "*", "rpc-latency.json"))
            say = json.load(open(found[0]))["requests"].get("Say") if found else None
            if not say:
                cells.append("no run")
                continue
            cpu.setdefault(pacing, {})[i] = say["cpuPerCall"]
            cells.append(f"{say['cpuPerCall']:.1f} µs, {say.get('late', 0)} late, {say.get('achievedRate', 0):.0f}/s, {say['ko']} KO"
                         + ("" if say.get("rateKept", True) else " (not kept)"))
        print(f"| `{pacing}` | " + " | ".join(cells) + " |")
    ratios = [cpu["paced"][i] / cpu["open"][i] for i in range(1, pairs + 1)
              if i in cpu.get("open", {}) and i in cpu.get("paced", {}) and cpu["open"][i] > 0]
    if ratios:
        print(f"\npaced / open CPU per call: median {statistics.median(ratios):.2f}, "
              f"range {min(ratios):.2f}–{max(ratios):.2f} ({len(ratios)} pairs)\n")
PY
