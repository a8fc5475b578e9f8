#!/usr/bin/env bash
# Where a request's time goes on the 27-process cube (issue 14, "Measured"): `perf record` of the
# front-end node (0,0,0) and of a forwarding node (1,0,0) while memcslap (set, then get, at
# concurrency 16) runs through the front-end; then the samples classified by their stack
# (classify-perf.py: TCP and UDP send/receive, futex, scheduler, AES-GCM, the spin's sched_yield,
# coreclr, managed code) and by thread.
#
#   bench/memcslap/profile.sh [--repo REPO] [--out DIR] [--port-base P] [--seconds S]
#
# REPO: a checkout whose src/Cli/CamCube.Cli is built in Release (default: this one). The nodes run
# with DOTNET_PerfMapEnabled=1 so JIT frames resolve. Loopback only (127.0.0.1): UDP P.., front-ends
# P+200.. (default P 31000). Bounded: every step has a timeout and a trap takes the cube down.
# Needs perf, memcslap (libmemcached-tools) and python3.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
REPO="$HERE"; OUT=""; PORT=31000; SECONDS_EACH=4
while [[ $# -gt 0 ]]; do
  case "$1" in
    --repo) REPO="$2"; shift 2 ;;
    --out) OUT="$2"; shift 2 ;;
    --port-base) PORT="$2"; shift 2 ;;
    --seconds) SECONDS_EACH="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
for tool in perf memcslap python3; do
  command -v "$tool" >/dev/null || { echo "$tool is not installed" >&2; exit 1; }
done
OUT="${OUT:-$(mktemp -d /tmp/camcube-profile.XXXXXX)}"
mkdir -p "$OUT"
CLI="$REPO/src/Cli/CamCube.Cli/bin/Release/net10.0/camcube.dll"
[[ -f "$CLI" ]] || { echo "build $REPO/src/Cli/CamCube.Cli in Release first" >&2; exit 1; }
export CAMCUBE_STATE_DIR; CAMCUBE_STATE_DIR="$(mktemp -d /tmp/camcube-profile-state.XXXXXX)"
chmod 700 "$CAMCUBE_STATE_DIR"
trap 'timeout 60 dotnet "$CLI" cube down >/dev/null 2>&1 || true' EXIT
MC=$((PORT + 200))
DOTNET_PerfMapEnabled=1 DOTNET_EnableWriteXorExecute=0 \
  timeout 240 dotnet "$CLI" cube up --shape 3x3x3 --base-port "$PORT" --memcached-port "$MC" --detach >"$OUT/up.out"
# A node's command line names its coordinate and the cube's UDP port (--CamCube:Coordinate=x,y,z
# --CamCube:BasePort=P; before the hosting package, --coord x,y,z --base-port P).
node_pid() { pgrep -f -- "(--CamCube:Coordinate=$1 --CamCube:BasePort=|--coord $1 --base-port )$PORT( |\$)" | head -1; }
FRONT_END=$(node_pid 0,0,0); FORWARDER=$(node_pid 1,0,0)
load() { timeout 180 memcslap --servers="127.0.0.1:$MC" --test="$1" --concurrency=16 --execute-number="$2" >>"$OUT/memcslap-$1.txt" 2>&1 || true; }
load set 2000; load get 2000   # warm-up
for test in set get; do
  for node in front-end forwarder; do
    pid=$FRONT_END; [[ $node == forwarder ]] && pid=$FORWARDER
    load "$test" 4000 &
    sleep 1
    timeout $((SECONDS_EACH + 20)) perf record -F 499 -g -p "$pid" -o "$OUT/$node-$test.data" -- sleep "$SECONDS_EACH" >/dev/null 2>&1 || true
    wait
  done
done
echo "front-end pid $FRONT_END, forwarder pid $FORWARDER; perf data in $OUT" >&2
python3 "$HERE/bench/memcslap/classify-perf.py" "$OUT"/front-end-set.data "$OUT"/front-end-get.data "$OUT"/forwarder-set.data "$OUT"/forwarder-get.data
