#!/usr/bin/env bash
# memcslap through CamCube's memcached front-end against the peer a user would pick, same run
# (issue 14, "Measured"):
#   27proc: one front-end (node 0,0,0) of the 27-process cube  vs  twemproxy (Debian's nutcracker,
#           ketama) in front of 27 memcached 1.6 processes on this host;
#   1node:  the front-end of a 1-node cube (--in-process)        vs  one memcached 1.6 process.
#   store:  (only with --only store; issue 16) the key-value store's front-end (r = 3, SQLite, node
#           0,0,0, port 11311 + i by default) vs the cache's front-end of the same node, on one
#           27-process cube in the same minutes: "peer" is the cache, "cube" the store.
# Each for set and get at each concurrency (default 4 and 16); the table gives ops/s and cube/peer.
#
#   bench/memcslap/run.sh [--build NAME=REPO[,VAR=VALUE...]]... [--ops N] [--concurrency "4 16"] [--rounds R]
#                         [--warm-up-ops N] [--only 1node|27proc|store] [--store-port-option OPT] [--port-base P]
#                         [--kv-storage sqlite|memory]
#
# --build NAME=REPO[,VAR=VALUE...] names a checkout whose src/Cli/CamCube.Cli is built in Release
# (built here if missing), and optionally an environment for its cube (e.g. a runtime setting);
# default: this checkout, named "current". Give it twice (a baseline and the current code) to have
# the builds take turns inside each round, against the same peers, in the same minutes.
# Loopback only (127.0.0.1), private ports (--port-base P, default 23400; build i adds 1000 x i):
#   memcached (1node peer) P+11; 1-node cube UDP P+100, front-end P+200;
#   27-process cube UDP P+300.., front-ends P+500..; 27 memcached P+600..P+626; nutcracker P+700
#   (stats P+701); the store's front-ends P+800.. (given to `cube up` with --store-port-option,
#   default --kv-port; --kv-storage memory keeps the store's replicas in memory, no disk, to see what
#   the disk costs). Bounded: every memcslap run and every start-up has a timeout, and a trap stops
#   everything this script started. Installs memcached, nutcracker and libmemcached-tools if missing.
# Counting: ops = memcslap's "Time to <test> N keys by C threads" (N = --ops, default 40000, split
# over C threads; the get test's single-threaded load before it is not counted). Each cube, once
# up, and its peer first get an uncounted warm-up (--warm-up-ops, default 8000, set and get at each
# concurrency).
# Every cube run is paired with a peer run right next to it (peer first in odd rounds, cube first
# in even ones); the table shows median ops/s over rounds and the median of the paired ratios,
# and the CPU time the target's processes used per request (user + system, from /proc: the cube's
# supervisor and nodes; memcached, or nutcracker and its 27 memcached), a figure less sensitive to
# the other work on a shared machine than ops/s.
set -euo pipefail

OPS=40000
WARMUP_OPS=8000
CONCURRENCIES="4 16"
ROUNDS=3
ONLY=""
STORE_PORT_OPTION="--kv-port"
KV_STORAGE=sqlite
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
    --store-port-option) STORE_PORT_OPTION="$2"; shift 2 ;;
    --kv-storage) KV_STORAGE="$2"; shift 2 ;;
    --port-base) PORT_BASE="$2"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done
case "$ONLY" in ""|1node|27proc|store) ;; *) echo "--only takes 1node, 27proc or store" >&2; exit 2 ;; esac
case "$KV_STORAGE" in sqlite|memory) ;; *) echo "--kv-storage takes sqlite or memory" >&2; exit 2 ;; esac
# Which parts run: both cube-vs-peer parts by default, the store-vs-cache part alone when asked.
part_on() { [[ "$ONLY" == "$1" || ( -z "$ONLY" && "$1" != store ) ]]; }

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

# shellcheck source=bench/builds.sh
source "$HERE/bench/builds.sh"
resolve_builds "${BUILDS[@]}"

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
cube_up() { # cli environment state-dir shape udp-port memcached-port [extra args]
  local cli=$1 environment=$2 dir=$3 shape=$4 udp=$5 mc=$6; shift 6
  mkdir -p "$dir"; chmod 700 "$dir"
  log "cube up --shape $shape (UDP $udp, memcached $mc) $* [$cli${environment:+ with $environment}]"
  CUBES_UP+=("$cli|$dir")
  # shellcheck disable=SC2086 # the environment is a list of VAR=VALUE words
  env $environment CAMCUBE_STATE_DIR="$dir" timeout 150 dotnet "$cli" cube up --shape "$shape" --base-port "$udp" \
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
  st=$(mc_exchange "$2" "stats\r\nquit\r\n" | tr -d '\r' | awk '$2 ~ /^(cmd_get|get_hits|get_misses|cmd_set|retransmissions)$/ { printf "%s=%s ", $2, $3 }')
  echo "stats $1 (127.0.0.1:$2): ${st:-unavailable}" | tee -a "$WORK/machine.txt" >&2
}

# CPU time (user + system, in clock ticks) used so far by the given processes and their threads.
cpu_ticks() { # pid...
  local pid sum=0 t
  for pid in "$@"; do
    t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || t=0
    sum=$((sum + ${t:-0}))
  done
  echo "$sum"
}
# The processes of a cube: its supervisor and nodes (their command lines name its private UDP port:
# the supervisor's as --base-port P, a node's as --CamCube:BasePort=P, or --base-port P before hosting).
cube_pids() { pgrep -f -- "(--base-port |--CamCube:BasePort=)$1( |\$)" | paste -sd' '; }

# One memcslap run; prints "ops seconds cpu-us-per-request" (or NA for each), the CPU being that of
# the target's processes (pids) over the whole run, per request sent (for get: the keys memcslap
# loads first are requests too).
memcslap_run() { # label port test concurrency pids
  local out="$WORK/memcslap-$1-$3-c$4-$(date +%s%N).txt" line ops secs loaded before after
  # shellcheck disable=SC2086 # pids is a list
  before=$(cpu_ticks $5)
  if ! timeout "$MEMCSLAP_TIMEOUT" memcslap --servers="127.0.0.1:$2" --test="$3" \
      --concurrency="$4" --execute-number=$((OPS / $4)) >"$out" 2>&1; then
    log "memcslap $1 $3 c$4 failed or timed out (see $out)"
  fi
  # shellcheck disable=SC2086
  after=$(cpu_ticks $5)
  line=$(grep -E "^Time to $3 +[0-9]+ keys by +[0-9]+ threads:" "$out" || true)
  if [[ -z "$line" ]]; then echo "NA NA NA"; return; fi
  ops=$(sed -E 's/^Time to [a-z]+ +([0-9]+) keys.*/\1/' <<<"$line")
  secs=$(sed -E 's/.*: +([0-9.]+) seconds\..*/\1/' <<<"$line")
  loaded=$(sed -nE 's/^Time to set +([0-9]+) keys: .*/\1/p' "$out"); loaded=${loaded:-0}
  echo "$ops $secs $(awk -v t=$((after - before)) -v hz="$CLK_TCK" -v n=$((ops + loaded)) 'BEGIN { printf "%.1f", t / hz * 1e6 / n }')"
}
CLK_TCK=$(getconf CLK_TCK)

# Not counted: a short set and get at each concurrency through both (the first clients of a front-end
# get threads of their own, later ones take the thread pool), so the cube's hot paths are compiled and
# the 27 processes' start-up work is over before the counted rounds.
warm_up() { # peer-port cube-port
  local port test c
  for port in "$1" "$2"; do
    for test in set get; do
      for c in $CONCURRENCIES; do
        timeout "$MEMCSLAP_TIMEOUT" memcslap --servers="127.0.0.1:$port" --test="$test" --concurrency="$c" \
          --execute-number=$((WARMUP_OPS / c)) >/dev/null 2>&1 || log "warm-up $test c$c on 127.0.0.1:$port failed"
      done
    done
  done
}

RESULTS="$WORK/results.tsv"   # build part test conc round peer-ops peer-s peer-us cube-ops cube-s cube-us load
: >"$RESULTS"
# Every (test, concurrency) once for a build's cube and its peer, side by side.
run_pairs() { # build part round peer-port peer-pids cube-port cube-pids
  local build=$1 part=$2 round=$3 peer=$4 peer_pids=$5 cube=$6 cube_pids=$7 test c p q
  for test in set get; do
    for c in $CONCURRENCIES; do
      if (( round % 2 )); then
        p=$(memcslap_run "$part-peer" "$peer" "$test" "$c" "$peer_pids"); q=$(memcslap_run "$part-cube" "$cube" "$test" "$c" "$cube_pids")
      else
        q=$(memcslap_run "$part-cube" "$cube" "$test" "$c" "$cube_pids"); p=$(memcslap_run "$part-peer" "$peer" "$test" "$c" "$peer_pids")
      fi
      read -r po ps pu <<<"$p"; read -r qo qs qu <<<"$q"
      log "$build $part $test c$c round $round: peer $po ops in $ps s ($pu us CPU/request), cube $qo ops in $qs s ($qu us CPU/request) (load $(load1))"
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$build" "$part" "$test" "$c" "$round" "$po" "$ps" "$pu" "$qo" "$qs" "$qu" "$(load1)" >>"$RESULTS"
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
    repo="${REPOS[$i]}"
    echo "build:      ${NAMES[$i]} = $(git -C "$repo" log -1 --format='%h %cd' --date=iso 2>/dev/null || echo "$repo")${ENVS[$i]:+, nodes run with ${ENVS[$i]}}"
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
if part_on 1node; then
  start_memcached "$MC_PORT"
  MC_PIDS="${PEER_PIDS[-1]}"
  wait_ready "$MC_PORT" 20
fi
if part_on 27proc; then
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
  TW_PIDS=""
  for ((i = 0; i < 27; i++)); do start_memcached $((TW_MC_BASE + i)); TW_PIDS+="${PEER_PIDS[-1]} "; done
  for ((i = 0; i < 27; i++)); do wait_ready $((TW_MC_BASE + i)) 20; done
  "$NUTCRACKER" -c "$WORK/nutcracker.yml" -s "$TW_STATS" -a 127.0.0.1 -p "$WORK/nutcracker.pid" \
    -o "$WORK/nutcracker.log" &
  PEER_PIDS+=($!); TW_PIDS+="$!"
  wait_ready "$TW_PORT" 20
fi

# --- rounds: each build's 1-node cube, then its 27-process cube, each beside its peer --------------
for ((r = 1; r <= ROUNDS; r++)); do
  for i in "${!NAMES[@]}"; do
    name=${NAMES[$i]}; cli=${CLIS[$i]}; environment=${ENVS[$i]}; off=$((PORT_BASE + 1000 * i))
    if part_on 1node; then
      dir="$WORK/state-$name-1node-$r"
      cube_up "$cli" "$environment" "$dir" 1x1x1 $((off + 100)) $((off + 200)) --in-process
      wait_ready $((off + 200)) 60
      warm_up "$MC_PORT" $((off + 200))
      pids=$(cube_pids $((off + 100))); log "the 1-node cube's processes: $pids"
      run_pairs "$name" 1node "$r" "$MC_PORT" "$MC_PIDS" $((off + 200)) "$pids"
      mc_stats "$name-1node-r$r" $((off + 200))
      cube_down "$cli" "$dir"
    fi
    if part_on 27proc; then
      dir="$WORK/state-$name-27proc-$r"
      cube_up "$cli" "$environment" "$dir" 3x3x3 $((off + 300)) $((off + 500))
      wait_ready $((off + 500)) 120
      warm_up "$TW_PORT" $((off + 500))
      pids=$(cube_pids $((off + 300))); log "the 27-process cube's processes: $(wc -w <<<"$pids") (supervisor and nodes)"
      run_pairs "$name" 27proc "$r" "$TW_PORT" "$TW_PIDS" $((off + 500)) "$pids"
      mc_stats "$name-27proc-r$r" $((off + 500))
      cube_down "$cli" "$dir"
    fi
    if part_on store; then
      # One 27-process cube with both front-ends: the cache's (the "peer") and the store's.
      dir="$WORK/state-$name-store-$r"
      cube_up "$cli" "$environment" "$dir" 3x3x3 $((off + 300)) $((off + 500)) "$STORE_PORT_OPTION" $((off + 800)) --kv-storage "$KV_STORAGE"
      wait_ready $((off + 500)) 120
      wait_ready $((off + 800)) 120
      warm_up $((off + 500)) $((off + 800))
      pids=$(cube_pids $((off + 300))); log "the 27-process cube's processes: $(wc -w <<<"$pids") (supervisor and nodes; both columns' CPU is theirs)"
      run_pairs "$name" store "$r" $((off + 500)) "$pids" $((off + 800)) "$pids"
      mc_stats "$name-store-cache-r$r" $((off + 500))
      mc_stats "$name-store-r$r" $((off + 800))
      cube_down "$cli" "$dir"
    fi
  done
done
if part_on 1node; then mc_stats memcached "$MC_PORT"; fi
if part_on 27proc; then
  for ((i = 0; i < 27; i++)); do mc_exchange $((TW_MC_BASE + i)) "stats\r\nquit\r\n"; done | tr -d '\r' |
    awk '$2 ~ /^(cmd_get|get_hits|get_misses|cmd_set)$/ { s[$2] += $3 } END { printf "stats twemproxy'"'"'s 27 memcached (summed): cmd_get=%d get_hits=%d get_misses=%d cmd_set=%d\n", s["cmd_get"], s["get_hits"], s["get_misses"], s["cmd_set"] }' |
    tee -a "$WORK/machine.txt" >&2
fi
echo "load at end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$WORK/machine.txt" >&2

# --- table: per (build, part, test, concurrency) medians over rounds ------------------------------
echo
awk -F'\t' -v storage="$KV_STORAGE" '
  function median(arr, m,   a, b, t) { # sorts arr[1..m] in place, returns the lower middle
    for (a = 2; a <= m; a++) { t = arr[a]; b = a - 1; while (b >= 1 && arr[b] > t) { arr[b + 1] = arr[b]; b-- }; arr[b + 1] = t }
    return arr[int((m + 1) / 2)]
  }
  { key = $1 "\t" $2 "\t" $3 "\t" $4; if (!(key in seen)) { seen[key] = 1; order[++k] = key }
    if ($6 == "NA" || $9 == "NA") { failed[key]++; next }
    m = ++n[key]; P[key, m] = $6 / $7; C[key, m] = $9 / $10; R[key, m] = ($9 / $10) / ($6 / $7)
    PU[key, m] = $8; CU[key, m] = $11; L[key, m] = $12 }
  END {
    printf "| build | target: cube vs peer | test | conc. | peer ops/s | cube ops/s | cube/peer | range | peer CPU us/req | cube CPU us/req | rounds | load |\n"
    printf "|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|---|\n"
    for (i = 1; i <= k; i++) {
      key = order[i]; split(key, f, "\t"); m = n[key]
      target = f[2] == "1node" ? "1-node cube vs memcached" : f[2] == "store" ? "27-process cube, node 0,0,0: store front-end (r = 3, " (storage == "memory" ? "memory" : "SQLite") ") vs cache front-end" : "27-process cube, front-end 0,0,0 vs twemproxy + 27 memcached"
      if (m == 0) { printf "| %s | %s | %s | %s | - | - | failed | - | - | - | 0 (%d failed) | - |\n", f[1], target, f[3], f[4], failed[key]; continue }
      for (j = 1; j <= m; j++) { p[j] = P[key, j]; c[j] = C[key, j]; r[j] = R[key, j]; pu[j] = PU[key, j]; cu[j] = CU[key, j]; l[j] = L[key, j] }
      pm = median(p, m); cm = median(c, m); rm = median(r, m); pum = median(pu, m); cum = median(cu, m); median(l, m)
      printf "| %s | %s | %s | %s | %.0f | %.0f | %.2fx | %.2f-%.2f | %.0f | %.0f | %d%s | %s-%s |\n", f[1], target, f[3], f[4], pm, cm, rm, r[1], r[m], pum, cum, m, failed[key] ? sprintf(" (%d failed)", failed[key]) : "", l[1], l[m]
    }
  }' "$RESULTS" | tee "$WORK/table.md"
