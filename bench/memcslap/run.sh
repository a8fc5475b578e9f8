#!/usr/bin/env bash
# memcslap through CamCube's memcached front-end against the peer a user would pick, same run
# (issue 14, "Measured"):
#   27proc: one front-end (node 0,0,0) of the 27-process cube  vs  twemproxy (Debian's nutcracker,
#           ketama) in front of 27 memcached 1.6 processes on this host;
#   1node:  the front-end of a 1-node cube (--in-process)        vs  one memcached 1.6 process.
# Each for set and get at each concurrency (default 4 and 16); the table gives ops/s and cube/peer.
#
#   bench/memcslap/run.sh [--build NAME=REPO]... [--ops N] [--concurrency "4 16"] [--rounds R]
#                         [--warm-up-ops N] [--only 1node|27proc] [--port-base P]
#
# --build names a checkout whose src/Cli/CamCube.Cli is built in Release (built here if missing);
# default: this checkout, named "current". Give it twice (a baseline and the current code) to have
# the builds take turns inside each round, against the same peers, in the same minutes.
# Loopback only (127.0.0.1), private ports (--port-base P, default 23400; build i adds 1000 x i):
#   memcached (1node peer) P+11; 1-node cube UDP P+100, front-end P+200;
#   27-process cube UDP P+300.., front-ends P+500..; 27 memcached P+600..P+626; nutcracker P+700
#   (stats P+701). Bounded: every memcslap run and every start-up has a timeout, and a trap stops
#   everything this script started. Installs memcached, nutcracker and libmemcached-tools if missing.
# Counting: ops = memcslap's "Time to <test> N keys by C threads" (N = --ops, default 40000, split
# over C threads; the get test's single-threaded load before it is not counted). Each cube, once
# up, and its peer first get an uncounted warm-up (--warm-up-ops, default 8000, set then get).
# Every cube run is paired with a peer run right next to it (peer first in odd rounds, cube first
# in even ones); the table shows median ops/s over rounds and the median of the paired ratios.
set -euo pipefail

OPS=40000
WARMUP_OPS=8000
CONCURRENCIES="4 16"
ROUNDS=3
ONLY=""
PORT_BASE=23400
MEMCSLAP_TIMEOUT=180
BUILDS=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) BUILDS+=("$2"); shift 2 ;;
    --ops) OPS="$2"; shift 2 ;;
    --warm-up-ops) WARMUP_OPS="$2"; shift 2 ;;
    --concurrency) CONCURRENCIES="$2"; shift 2 ;;
    --rounds) ROUNDS="$2"; shift 2 ;;
    --only) ONLY="$2"; shift 2 ;;
    --port-base) PORT_BASE="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
case "$ONLY" in ""|1node|27proc) ;; *) echo "--only takes 1node or 27proc" >&2; exit 2 ;; esac

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
(( ${#BUILDS[@]} > 0 )) || BUILDS=("current=$HERE")
WORK="$(mktemp -d /tmp/camcube-memcslap.XXXXXX)"
MC_PORT=$((PORT_BASE + 11))
TW_MC_BASE=$((PORT_BASE + 600)); TW_PORT=$((PORT_BASE + 700)); TW_STATS=$((PORT_BASE + 701))

PEER_PIDS=()
CUBES_UP=()   # "cli-dll|state-dir"
cleanup() {
  set +e
  for entry in "${CUBES_UP[@]+"${CUBES_UP[@]}"}"; do
    CAMCUBE_STATE_DIR="${entry#*|}" timeout 60 dotnet "${entry%%|*}" cube down >/dev/null 2>&1
  done
  for pid in "${PEER_PIDS[@]+"${PEER_PIDS[@]}"}"; do kill "$pid" 2>/dev/null; done
  for pid in "${PEER_PIDS[@]+"${PEER_PIDS[@]}"}"; do wait "$pid" 2>/dev/null; done
  echo "(work files and cube logs in $WORK)" >&2
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log() { echo "[$(date -u +%H:%M:%S)] $*" >&2; }
load1() { cut -d' ' -f1 /proc/loadavg; }

# --- tools and builds ----------------------------------------------------------------------------
need=()
command -v memcslap >/dev/null || need+=(libmemcached-tools)
command -v memcached >/dev/null || need+=(memcached)
command -v nutcracker >/dev/null || [[ -x /usr/sbin/nutcracker ]] || need+=(nutcracker)
if (( ${#need[@]} > 0 )); then
  log "installing ${need[*]}"
  SUDO=""; [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q >/dev/null
  $SUDO apt-get install -y -q --no-install-recommends "${need[@]}" >/dev/null
fi
NUTCRACKER="$(command -v nutcracker || echo /usr/sbin/nutcracker)"

NAMES=(); CLIS=()
for spec in "${BUILDS[@]}"; do
  name="${spec%%=*}"; repo="${spec#*=}"
  [[ "$name" != "$spec" && -d "$repo" ]] || { echo "--build takes NAME=REPO (an existing checkout): $spec" >&2; exit 2; }
  cli="$repo/src/Cli/CamCube.Cli/bin/Release/net10.0/camcube.dll"
  if [[ ! -f "$cli" ]]; then
    log "building the CLI of $name ($repo)"
    timeout 900 dotnet build "$repo/src/Cli/CamCube.Cli" -c Release -v q >/dev/null
  fi
  NAMES+=("$name"); CLIS+=("$cli")
done

# --- helpers -------------------------------------------------------------------------------------
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
cube_up() { # cli state-dir shape udp-port memcached-port [extra args]
  local cli=$1 dir=$2 shape=$3 udp=$4 mc=$5; shift 5
  mkdir -p "$dir"; chmod 700 "$dir"
  log "cube up --shape $shape (UDP $udp, memcached $mc) $* [$cli]"
  CUBES_UP+=("$cli|$dir")
  CAMCUBE_STATE_DIR="$dir" timeout 150 dotnet "$cli" cube up --shape "$shape" --base-port "$udp" \
    --memcached-port "$mc" --detach "$@" >"$dir/up.out" 2>&1 || { cat "$dir/up.out" >&2; return 1; }
}
cube_down() { # cli state-dir
  CAMCUBE_STATE_DIR="$2" timeout 60 dotnet "$1" cube down >/dev/null 2>&1 || true
  local keep=() entry
  for entry in "${CUBES_UP[@]+"${CUBES_UP[@]}"}"; do [[ "$entry" != "$1|$2" ]] && keep+=("$entry"); done
  CUBES_UP=("${keep[@]+"${keep[@]}"}")
}
mc_stats() { # label port
  local st
  st=$(mc_exchange "$2" "stats\r\nquit\r\n" | tr -d '\r' | awk '$2 ~ /^(cmd_get|get_hits|get_misses|cmd_set)$/ { printf "%s=%s ", $2, $3 }')
  echo "stats $1 (127.0.0.1:$2): ${st:-unavailable}" | tee -a "$WORK/machine.txt" >&2
}

# One memcslap run; prints "ops seconds" (or "NA NA").
memcslap_run() { # label port test concurrency
  local out="$WORK/memcslap-$1-$3-c$4-$(date +%s%N).txt" line
  if ! timeout "$MEMCSLAP_TIMEOUT" memcslap --servers="127.0.0.1:$2" --test="$3" \
      --concurrency="$4" --execute-number=$((OPS / $4)) >"$out" 2>&1; then
    log "memcslap $1 $3 c$4 failed or timed out (see $out)"
  fi
  line=$(grep -E "^Time to $3 +[0-9]+ keys by +[0-9]+ threads:" "$out" || true)
  if [[ -z "$line" ]]; then echo "NA NA"; return; fi
  echo "$(sed -E 's/^Time to [a-z]+ +([0-9]+) keys.*/\1/' <<<"$line") $(sed -E 's/.*: +([0-9.]+) seconds\..*/\1/' <<<"$line")"
}

# Not counted: a short set and get through both, so the cube's hot paths are compiled (tier 1) and
# the 27 processes' start-up work is over before the counted rounds.
warm_up() { # peer-port cube-port
  local port test
  for port in "$1" "$2"; do
    for test in set get; do
      timeout "$MEMCSLAP_TIMEOUT" memcslap --servers="127.0.0.1:$port" --test="$test" --concurrency=4 \
        --execute-number=$((WARMUP_OPS / 4)) >/dev/null 2>&1 || log "warm-up $test on 127.0.0.1:$port failed"
    done
  done
}

RESULTS="$WORK/results.tsv"   # build part test concurrency round peer-ops peer-s cube-ops cube-s load
: >"$RESULTS"
# Every (test, concurrency) once for a build's cube and its peer, side by side.
run_pairs() { # build part round peer-port cube-port
  local build=$1 part=$2 round=$3 peer=$4 cube=$5 test c p q
  for test in set get; do
    for c in $CONCURRENCIES; do
      if (( round % 2 )); then p=$(memcslap_run "$part-peer" "$peer" "$test" "$c"); q=$(memcslap_run "$part-cube" "$cube" "$test" "$c")
      else q=$(memcslap_run "$part-cube" "$cube" "$test" "$c"); p=$(memcslap_run "$part-peer" "$peer" "$test" "$c"); fi
      log "$build $part $test c$c round $round: peer ${p// / ops in } s, cube ${q// / ops in } s (load $(load1))"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$build" "$part" "$test" "$c" "$round" ${p} ${q} "$(load1)" >>"$RESULTS"
    done
  done
}

# --- machine -------------------------------------------------------------------------------------
{
  echo "date:       $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "machine:    nproc=$(nproc), $(lscpu | sed -n 's/^Model name: *//p' | head -1)"
  echo "dotnet:     $(dotnet --version)"
  echo "memcached:  $(memcached -V); $("$NUTCRACKER" -V 2>&1 | head -1); memcslap $(memcslap --version 2>&1 | head -1)"
  for i in "${!NAMES[@]}"; do
    repo="${BUILDS[$i]#*=}"
    echo "build:      ${NAMES[$i]} = $(git -C "$repo" log -1 --format='%h %cd' --date=iso 2>/dev/null || echo "$repo")"
  done
  echo "settings:   --ops $OPS (split over the threads), concurrency $CONCURRENCIES, $ROUNDS rounds"
  echo "load:       $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15-min load average at start)"
  echo "other work: $(ps -eo pcpu=,comm= --sort=-pcpu | awk '$1 > 5 { printf "%s(%s%%) ", $2, $1 }')"
} | tee "$WORK/machine.txt" >&2

# --- the peers, up for the whole run -------------------------------------------------------------
MC_USER=(); [[ $(id -u) -eq 0 ]] && MC_USER=(-u nobody)
start_memcached() { # port
  memcached -p "$1" -U 0 -l 127.0.0.1 -m 64 "${MC_USER[@]}" >>"$WORK/memcached.log" 2>&1 &
  PEER_PIDS+=($!)
}
if [[ "$ONLY" != 27proc ]]; then
  start_memcached "$MC_PORT"
  wait_ready "$MC_PORT" 20
fi
if [[ "$ONLY" != 1node ]]; then
  {
    echo "camcube_peer:"
    echo "  listen: 127.0.0.1:$TW_PORT"
    echo "  hash: fnv1a_64"
    echo "  distribution: ketama"
    echo "  timeout: 5000"
    echo "  auto_eject_hosts: false"
    echo "  servers:"
    for ((i = 0; i < 27; i++)); do echo "   - 127.0.0.1:$((TW_MC_BASE + i)):1 mc$i"; done
  } >"$WORK/nutcracker.yml"
  for ((i = 0; i < 27; i++)); do start_memcached $((TW_MC_BASE + i)); done
  for ((i = 0; i < 27; i++)); do wait_ready $((TW_MC_BASE + i)) 20; done
  "$NUTCRACKER" -c "$WORK/nutcracker.yml" -s "$TW_STATS" -a 127.0.0.1 -p "$WORK/nutcracker.pid" \
    -o "$WORK/nutcracker.log" &
  PEER_PIDS+=($!)
  wait_ready "$TW_PORT" 20
fi

# --- rounds: each build's 1-node cube, then its 27-process cube, each beside its peer --------------
for ((r = 1; r <= ROUNDS; r++)); do
  for i in "${!NAMES[@]}"; do
    name=${NAMES[$i]}; cli=${CLIS[$i]}; off=$((PORT_BASE + 1000 * i))
    if [[ "$ONLY" != 27proc ]]; then
      dir="$WORK/state-$name-1node-$r"
      cube_up "$cli" "$dir" 1x1x1 $((off + 100)) $((off + 200)) --in-process
      wait_ready $((off + 200)) 60
      warm_up "$MC_PORT" $((off + 200))
      run_pairs "$name" 1node "$r" "$MC_PORT" $((off + 200))
      mc_stats "$name-1node-r$r" $((off + 200))
      cube_down "$cli" "$dir"
    fi
    if [[ "$ONLY" != 1node ]]; then
      dir="$WORK/state-$name-27proc-$r"
      cube_up "$cli" "$dir" 3x3x3 $((off + 300)) $((off + 500))
      wait_ready $((off + 500)) 120
      warm_up "$TW_PORT" $((off + 500))
      run_pairs "$name" 27proc "$r" "$TW_PORT" $((off + 500))
      mc_stats "$name-27proc-r$r" $((off + 500))
      cube_down "$cli" "$dir"
    fi
  done
done
[[ "$ONLY" != 27proc ]] && mc_stats memcached "$MC_PORT"
if [[ "$ONLY" != 1node ]]; then
  for ((i = 0; i < 27; i++)); do mc_exchange $((TW_MC_BASE + i)) "stats\r\nquit\r\n"; done | tr -d '\r' |
    awk '$2 ~ /^(cmd_get|get_hits|get_misses|cmd_set)$/ { s[$2] += $3 } END { printf "stats twemproxy'"'"'s 27 memcached (summed): cmd_get=%d get_hits=%d get_misses=%d cmd_set=%d\n", s["cmd_get"], s["get_hits"], s["get_misses"], s["cmd_set"] }' |
    tee -a "$WORK/machine.txt" >&2
fi
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$WORK/machine.txt" >&2

# --- table: per (build, part, test, concurrency) medians over rounds ------------------------------
awk -F'\t' '
  function median(arr, m,   a, b, t, idx) { # sorts arr[1..m] in place, returns the lower middle
    for (a = 2; a <= m; a++) { t = arr[a]; b = a - 1; while (b >= 1 && arr[b] > t) { arr[b + 1] = arr[b]; b-- }; arr[b + 1] = t }
    return arr[int((m + 1) / 2)]
  }
  { key = $1 "\t" $2 "\t" $3 "\t" $4; if (!(key in seen)) { seen[key] = 1; order[++k] = key }
    if ($6 == "NA" || $8 == "NA") { failed[key]++; next }
    m = ++n[key]; P[key, m] = $6 / $7; C[key, m] = $8 / $9; R[key, m] = ($8 / $9) / ($6 / $7); L[key, m] = $10 }
  END {
    printf "| build | target (cube vs peer) | test | conc. | peer ops/s | cube ops/s | cube/peer | ratio range | rounds | load |\n"
    printf "|---|---|---|---:|---:|---:|---:|---|---:|---|\n"
    for (i = 1; i <= k; i++) {
      key = order[i]; split(key, f, "\t"); m = n[key]
      target = f[2] == "1node" ? "1-node cube vs memcached" : "27-proc cube (0,0,0) vs twemproxy+27 memcached"
      if (m == 0) { printf "| %s | %s | %s | %s | - | - | failed | - | 0 (%d failed) | - |\n", f[1], target, f[3], f[4], failed[key]; continue }
      for (j = 1; j <= m; j++) { p[j] = P[key, j]; c[j] = C[key, j]; r[j] = R[key, j]; l[j] = L[key, j] }
      pm = median(p, m); cm = median(c, m); rm = median(r, m)
      median(l, m)
      printf "| %s | %s | %s | %s | %.0f | %.0f | %.2fx | %.2f .. %.2f | %d%s | %s .. %s |\n", f[1], target, f[3], f[4], pm, cm, rm, r[1], r[m], m, failed[key] ? sprintf(" (%d failed)", failed[key]) : "", l[1], l[m]
    }
  }' "$RESULTS" | tee "$WORK/table.md"
