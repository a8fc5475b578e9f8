#!/usr/bin/env bash
# A key's first write against a write of a key that exists, through the key-value store's front-end
# (node 0,0,0) of a 27-process cube on loopback (docs/experiments.md, "First writes"):
#   fresh:   sets of keys never written before, each its key's first write;
#   rewrite: sets of keys written once before (not timed).
# For each build, each round: cube up, an uncounted warm-up (1,600 fresh sets and 3,200 rewrites at
# concurrency 8, so that both paths are compiled alike), then each mode at each
# concurrency (bench/first-write/sets.py), then the store's counters summed over the nodes
# (first writes in one round, take-overs), then cube down. Builds take turns inside each round.
#
#   bench/first-write/run.sh [--build NAME=REPO[,VAR=VALUE...]]... [--rounds R] [--sets N]
#                            [--concurrency "1 8"] [--kv-storage sqlite|memory] [--port-base P]
#
# --build as in bench/memcslap/run.sh (a checkout whose CLI is built in Release if missing; default
# this checkout, "current"). Loopback only; private ports from --port-base (default 24400; build i
# adds 1000 x i): UDP P+300.., the store's front-ends P+800... Bounded: every start-up and every
# driver run has a timeout, and a trap stops every cube this script started.
set -euo pipefail

ROUNDS=2
SETS=400
CONCURRENCIES="1 8"
KV_STORAGE=sqlite
PORT_BASE=24400
BUILDS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) BUILDS+=("$2"); shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --sets) SETS="$2"; shift 2 ;;
    --concurrency) CONCURRENCIES="$2"; shift 2 ;;
    --kv-storage) KV_STORAGE="$2"; shift 2 ;;
    --port-base) PORT_BASE="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
[[ "$ROUNDS" =~ ^[1-9][0-9]*$ && "$SETS" =~ ^[1-9][0-9]*$ && "$PORT_BASE" =~ ^[1-9][0-9]*$ ]] || { echo "--rounds, --sets and --port-base take positive whole numbers" >&2; exit 2; }
case "$KV_STORAGE" in sqlite|memory) ;; *) echo "--kv-storage takes sqlite or memory" >&2; exit 2 ;; esac

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
(( ${#BUILDS[@]} > 0 )) || BUILDS=("current=$HERE")
WORK="$(mktemp -d /tmp/camcube-first-write.XXXXXX)"
CUBES_UP=()   # "cli-dll|state-dir"
cleanup() {
  set +e
  for entry in "${CUBES_UP[@]+"${CUBES_UP[@]}"}"; do
    CAMCUBE_STATE_DIR="${entry#*|}" timeout 60 dotnet "${entry%%|*}" cube down >/dev/null 2>&1
  done
  echo "(work files and cube logs in $WORK)" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM
log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }

# shellcheck source=bench/builds.sh
source "$HERE/bench/builds.sh"
resolve_builds "${BUILDS[@]}"

{
  echo "date:     $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine:  nproc=$(nproc), $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "dotnet:   $(dotnet --version)"
  for i in "${!NAMES[@]}"; do
    echo "build:    ${NAMES[$i]} = $(git -C "${REPOS[$i]}" log -1 --format='%h %cd' --date=iso 2>/dev/null || echo "${REPOS[$i]}")${ENVS[$i]:+, nodes run with ${ENVS[$i]}}"
  done
  echo "settings: --sets $SETS, concurrency $CONCURRENCIES, $ROUNDS rounds, storage $KV_STORAGE, 1 KiB values"
  echo "load:     $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15-min load average at start)"
} | tee "$WORK/machine.txt" >&2

SETS_PY="$HERE/bench/first-write/sets.py"
RESULTS="$WORK/results.jsonl"
: >"$RESULTS"
for ((r = 1; r <= ROUNDS; r++)); do
  for i in "${!NAMES[@]}"; do
    name=${NAMES[$i]}; cli=${CLIS[$i]}; environment=${ENVS[$i]}; off=$((PORT_BASE + 1000 * i))
    dir="$WORK/state-$name-$r"; mkdir -p "$dir"; chmod 700 "$dir"
    log "$name round $r: cube up (UDP $((off + 300)), store front-ends $((off + 800)))"
    CUBES_UP+=("$cli|$dir")
    # shellcheck disable=SC2086 # the environment is a list of VAR=VALUE words
    env $environment CAMCUBE_STATE_DIR="$dir" timeout 150 dotnet "$cli" cube up --shape 3x3x3 --base-port $((off + 300)) \
      --no-memcached --kv-port $((off + 800)) --kv-storage "$KV_STORAGE" --detach >"$dir/up.out" 2>&1 || { cat "$dir/up.out" >&2; exit 1; }
    # The first sets wait out the servers' start lease and compile the hot paths: a warm-up, not counted.
    deadline=$((SECONDS + 120))
    until timeout 60 python3 "$SETS_PY" --port $((off + 800)) --mode fresh --sets 50 >/dev/null 2>&1; do
      (( SECONDS < deadline )) || { echo "the store's front-end did not serve sets within 120 s" >&2; exit 1; }
      sleep 1
    done
    # Both paths warmed alike (the JIT promotes a method after its first calls): fresh sets use only
    # the take-over's messages with this change, rewrites the accepts.
    # A warm-up set that fails (a write answered "may or may not have taken effect" while links flap on
    # a loaded host) is logged, not fatal; a counted one stops the run.
    for mode in fresh rewrite rewrite; do
      timeout 300 python3 "$SETS_PY" --port $((off + 800)) --mode "$mode" --sets 1600 --concurrency 8 >/dev/null 2>"$dir/warm-up.err" ||
        log "$name round $r: a warm-up $mode set failed: $(cat "$dir/warm-up.err")"
    done
    for c in $CONCURRENCIES; do
      for mode in fresh rewrite; do
        line=$(timeout 300 python3 "$SETS_PY" --port $((off + 800)) --mode "$mode" --sets "$SETS" --concurrency "$c")
        log "$name round $r: $line (load $(cut -d' ' -f1 /proc/loadavg))"
        echo "{\"build\": \"$name\", \"round\": $r, \"result\": $line}" >>"$RESULTS"
      done
    done
    CAMCUBE_STATE_DIR="$dir" timeout 60 dotnet "$cli" cube kv-stats >"$dir/kv-stats.txt" 2>&1 || true
    log "$name round $r: the nodes' counters summed: $(tail -1 "$dir/kv-stats.txt" | tr -s ' ' | cut -c1-400)"
    CAMCUBE_STATE_DIR="$dir" timeout 60 dotnet "$cli" cube down >/dev/null 2>&1 || true
    CUBES_UP=("${CUBES_UP[@]:0:${#CUBES_UP[@]}-1}")
  done
done
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$WORK/machine.txt" >&2

# Medians over the rounds per (build, mode, concurrency); fresh/rewrite is the ratio of the medians.
python3 - "$RESULTS" <<'PY' | tee "$WORK/table.md"
import json, statistics, sys
rows = [json.loads(line) for line in open(sys.argv[1])]
groups = {}
for row in rows:
    r = row["result"]
    groups.setdefault((row["build"], r["concurrency"], r["mode"]), []).append(r)
print("| build | conc. | mode | sets/s | p50 ms | p90 ms | p99 ms | rounds |")
print("|---|--:|---|--:|--:|--:|--:|--:|")
for (build, conc, mode), results in sorted(groups.items()):
    med = lambda k: statistics.median(x[k] for x in results)
    print(f"| {build} | {conc} | {mode} | {med('ops_per_s'):.0f} | {med('p50_ms'):.2f} | {med('p90_ms'):.2f} | {med('p99_ms'):.2f} | {len(results)} |")
PY
