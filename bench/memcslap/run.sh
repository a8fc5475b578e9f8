#!/usr/bin/env bash
# memcslap against Debian's memcached 1.6 and against CamCube's memcached front-end
# (a 1-node cube and the 27-process cube), same settings, same run (issue 7, "Performance").
#
#   bench/memcslap/run.sh [--execute-number N] [--concurrency C] [--rounds R] [--skip-27] [--port-base P]
#
# Loopback only (127.0.0.1). Bounded: every memcslap run is limited by a timeout, each cube's start-up
# by a timeout, and everything this script starts is stopped by a trap on exit.
# Ports (private, change with --port-base P, default 23400):
#   memcached              P+11          (TCP; UDP off)
#   1-node cube            UDP P+100..   front-end P+200
#   27-process cube        UDP P+300..   front-ends P+500 .. P+526
# Reported: ops = execute-number x concurrency (memcslap's "Time to <test> N keys by C threads");
# seconds = that line's time; each (target, test) is run R rounds and the median round is shown.
set -euo pipefail

EXECUTE=20000
CONCURRENCY=4
ROUNDS=3
SKIP27=0
PORT_BASE=23400
MEMCSLAP_TIMEOUT=300
while [[ $# -gt 0 ]]; do
  case "$1" in
    --execute-number) EXECUTE="$2"; shift 2 ;;
    --concurrency) CONCURRENCY="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --skip-27) SKIP27=1; shift ;;
    --port-base) PORT_BASE="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
CLI_DLL="$REPO/src/Cli/CamCube.Cli/bin/Release/net10.0/camcube.dll"
MC_PORT=$((PORT_BASE + 11))
C1_UDP=$((PORT_BASE + 100)); C1_MC=$((PORT_BASE + 200))
C27_UDP=$((PORT_BASE + 300)); C27_MC=$((PORT_BASE + 500))
WORK="$(mktemp -d /tmp/camcube-memcslap.XXXXXX)"
STATE1="$WORK/state-1node"; STATE27="$WORK/state-27"
mkdir -p "$STATE1" "$STATE27"

MC_PID=""
CUBES_UP=()
cleanup() {
  set +e
  for dir in "${CUBES_UP[@]}"; do
    CAMCUBE_STATE_DIR="$dir" timeout 60 dotnet "$CLI_DLL" cube down >/dev/null 2>&1
  done
  if [[ -n "$MC_PID" ]]; then kill "$MC_PID" 2>/dev/null; wait "$MC_PID" 2>/dev/null; fi
  echo "(work files and cube logs in $WORK)" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "[$(date +%H:%M:%S)] $*" >&2; }

# --- tools -------------------------------------------------------------------------------------
if ! command -v memcached >/dev/null || ! command -v memcslap >/dev/null; then
  log "installing memcached and libmemcached-tools"
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q >/dev/null
  $SUDO apt-get install -y -q --no-install-recommends memcached libmemcached-tools >/dev/null
fi
if [[ ! -f "$CLI_DLL" ]]; then
  log "building the CLI"
  dotnet build "$REPO/src/Cli/CamCube.Cli" -c Release -v q >/dev/null
fi

# --- helpers -----------------------------------------------------------------------------------
# One memcached text-protocol exchange over bash's /dev/tcp; prints the answer (bounded by timeout).
mc_exchange() { # port request
  timeout 5 bash -c 'exec 3<>/dev/tcp/127.0.0.1/'"$1"'; printf "%b" "$2" >&3; timeout 2 cat <&3' _ "$1" "$2" 2>/dev/null || true
}
# Wait until a set followed by a get of a fresh key answers with the value (the service is routing).
wait_ready() { # port seconds
  local port=$1 deadline=$((SECONDS + $2)) key
  while (( SECONDS < deadline )); do
    key="ready$RANDOM"
    if mc_exchange "$port" "set $key 0 0 2\r\nok\r\nget $key\r\nquit\r\n" | grep -q "^VALUE $key"; then return 0; fi
    sleep 1
  done
  echo "127.0.0.1:$port did not serve set/get within $2 s" >&2; return 1
}
cube_up() { # state-dir shape udp-port memcached-port [extra args]
  local dir=$1 shape=$2 udp=$3 mc=$4; shift 4
  log "cube up --shape $shape (UDP $udp, memcached $mc) $*"
  CAMCUBE_STATE_DIR="$dir" timeout 120 dotnet "$CLI_DLL" cube up --shape "$shape" --base-port "$udp" \
    --memcached-port "$mc" --detach "$@" >"$dir/up.out" 2>&1
  CUBES_UP+=("$dir")
}
cube_down() { # state-dir
  CAMCUBE_STATE_DIR="$1" timeout 60 dotnet "$CLI_DLL" cube down >/dev/null 2>&1 || true
  local keep=()
  for d in "${CUBES_UP[@]}"; do [[ "$d" != "$1" ]] && keep+=("$d"); done
  CUBES_UP=("${keep[@]+"${keep[@]}"}")
}

# The front-end's own counters after a target's rounds (checks that memcslap's gets hit).
mc_stats() { # target port
  local st
  st=$(mc_exchange "$2" "stats\r\nquit\r\n" | tr -d '\r' | awk '$2 ~ /^(cmd_get|get_hits|get_misses|cmd_set)$/ { printf "%s=%s ", $2, $3 }')
  echo "stats $1 (127.0.0.1:$2): ${st:-unavailable}" | tee -a "$WORK/machine.txt"
}

RESULTS="$WORK/results.tsv"   # target test round ops seconds
: >"$RESULTS"
run_memcslap() { # target port test round
  local target=$1 port=$2 test=$3 round=$4 out line ops secs
  out="$WORK/memcslap-$target-$test-$round.txt"
  if ! timeout "$MEMCSLAP_TIMEOUT" memcslap --servers="127.0.0.1:$port" --test="$test" \
      --concurrency="$CONCURRENCY" --execute-number="$EXECUTE" >"$out" 2>&1; then
    log "memcslap $target $test round $round failed or timed out (see $out)"
  fi
  line=$(grep -E "^Time to $test +[0-9]+ keys by +[0-9]+ threads:" "$out" || true)
  if [[ -z "$line" ]]; then printf '%s\t%s\t%s\tNA\tNA\n' "$target" "$test" "$round" >>"$RESULTS"; return; fi
  ops=$(sed -E 's/^Time to [a-z]+ +([0-9]+) keys.*/\1/' <<<"$line")
  secs=$(sed -E 's/.*: +([0-9.]+) seconds\..*/\1/' <<<"$line")
  log "$target $test round $round: $ops ops in $secs s"
  printf '%s\t%s\t%s\t%s\t%s\n' "$target" "$test" "$round" "$ops" "$secs" >>"$RESULTS"
}

# --- machine ------------------------------------------------------------------------------------
{
  echo "date:      $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine:   nproc=$(nproc), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "dotnet:    $(dotnet --version)"
  echo "memcached: $(memcached -V)"
  echo "memcslap:  $(memcslap --version 2>&1 | head -1)"
  echo "settings:  --concurrency=$CONCURRENCY --execute-number=$EXECUTE, $ROUNDS rounds (median shown)"
  echo "load:      $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15-min load average at start)"
  echo "other work at start (processes over 5% CPU): $(ps -eo pcpu=,comm= --sort=-pcpu | awk '$1 > 5 { printf "%s(%s%%) ", $2, $1 }')"
} | tee "$WORK/machine.txt"

# --- memcached and the 1-node cube, rounds interleaved --------------------------------------------
MC_USER=(); [[ $(id -u) -eq 0 ]] && MC_USER=(-u nobody)
memcached -p "$MC_PORT" -U 0 -l 127.0.0.1 -m 256 "${MC_USER[@]}" >"$WORK/memcached.log" 2>&1 &
MC_PID=$!
wait_ready "$MC_PORT" 20
cube_up "$STATE1" 1x1x1 "$C1_UDP" "$C1_MC" --in-process
wait_ready "$C1_MC" 60
for ((r = 1; r <= ROUNDS; r++)); do
  for test in set get; do
    run_memcslap memcached "$MC_PORT" "$test" "$r"
    run_memcslap cube-1node "$C1_MC" "$test" "$r"
  done
done
mc_stats memcached "$MC_PORT"
mc_stats cube-1node "$C1_MC"
cube_down "$STATE1"

# --- the 27-process cube (started after the 1-node cube is down, so it does not load the others) --
if (( ! SKIP27 )); then
  cube_up "$STATE27" 3x3x3 "$C27_UDP" "$C27_MC"
  wait_ready "$C27_MC" 120
  for ((r = 1; r <= ROUNDS; r++)); do
    for test in set get; do run_memcslap cube-27proc "$C27_MC" "$test" "$r"; done
  done
  mc_stats cube-27proc "$C27_MC"
  cube_down "$STATE27"
fi
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$WORK/machine.txt"

# --- table: median round per (target, test), ratio to memcached's median ---------------------------
echo
awk -F'\t' '
  $4 != "NA" { key = $1 "\t" $2; n[key]++; rate = $4 / $5; r[key, n[key]] = rate; o[key, n[key]] = $4; s[key, n[key]] = $5
               if (!(key in seen)) { seen[key] = 1; order[++k] = key } }
  $4 == "NA" { key = $1 "\t" $2; if (!(key in seen)) { seen[key] = 1; order[++k] = key }; failed[key]++ }
  END {
    for (i = 1; i <= k; i++) {
      key = order[i]; m = n[key]
      if (m == 0) { med[key] = -1; continue }
      # sort the rounds by rate (insertion sort), take the median (lower middle)
      for (a = 1; a <= m; a++) idx[a] = a
      for (a = 2; a <= m; a++) { t = idx[a]; b = a - 1; while (b >= 1 && r[key, idx[b]] > r[key, t]) { idx[b + 1] = idx[b]; b-- }; idx[b + 1] = t }
      j = idx[int((m + 1) / 2)]; med[key] = r[key, j]; mo[key] = o[key, j]; ms[key] = s[key, j]
      lo[key] = r[key, idx[1]]; hi[key] = r[key, idx[m]]
    }
    printf "| target | test | ops | seconds | ops/s | ratio to memcached | ops/s range over rounds |\n"
    printf "|---|---|---:|---:|---:|---:|---|\n"
    for (i = 1; i <= k; i++) {
      key = order[i]; split(key, p, "\t"); base = "memcached\t" p[2]
      if (med[key] < 0) { printf "| %s | %s | - | - | failed | - | %d failed rounds |\n", p[1], p[2], failed[key]; continue }
      ratio = (base in med && med[base] > 0) ? sprintf("%.2fx", med[key] / med[base]) : "-"
      note = sprintf("%.0f .. %.0f (%d rounds%s)", lo[key], hi[key], n[key], failed[key] ? sprintf(", %d failed", failed[key]) : "")
      printf "| %s | %s | %d | %.3f | %.0f | %s | %s |\n", p[1], p[2], mo[key], ms[key], med[key], ratio, note
    }
  }' "$RESULTS" | tee "$WORK/table.md"
