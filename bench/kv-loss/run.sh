#!/usr/bin/env bash
# The store's calls under loss on a fresh 27-process cube: every node drops a share of the frames it
# receives (camcube cube faults all --drop P), then client.py runs KeyValueUnderLossTests' sequence
# (set, gets, cas, a stale cas, a get through the next front-end) on KEYS keys through the store
# front-ends of 0,0,0, 1,2,2 and 2,1,0, RUNS times. Prints each run's failed and slow (over 1 s)
# calls, then the requests the reliable transport sent again, summed over the nodes.
# usage: bench/kv-loss/run.sh CAMCUBE_DLL [RUNS=3] [KEYS=100] [DROP=0.05]
set -uo pipefail
cli=${1:?usage: run.sh CAMCUBE_DLL [RUNS] [KEYS] [DROP]}; runs=${2:-3}; keys=${3:-100}; drop=${4:-0.05}
here=$(cd "$(dirname "$0")" && pwd)
state=$(mktemp -d /tmp/kv-loss.XXXXXX); chmod 700 "$state"
cc() { CAMCUBE_STATE_DIR=$state timeout 150 dotnet "$cli" "$@"; }
trap 'cc cube down >/dev/null 2>&1; rm -rf "$state"' EXIT
cc cube up --shape 3x3x3 --base-port 24500 --memcached-port 25550 --kv-port 25500 --detach > "$state/up.out" 2>&1 || { cat "$state/up.out"; exit 1; }
cc cube faults all --drop "$drop"
for run in $(seq 1 "$runs"); do timeout 600 python3 "$here/client.py" 25500 "$keys" "run$run"; done
cc cube faults all --drop 0
echo "requests sent again: $(cc cube kv-stats | grep '^total:' | grep -oE 'ReliablePacketsSentAgain=[0-9]+' | cut -d= -f2)"
