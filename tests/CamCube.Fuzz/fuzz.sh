#!/usr/bin/env bash
# Fuzzes the parsers that take bytes from outside with SharpFuzz and AFL++ (docs/fuzzing.md):
#   tests/CamCube.Fuzz/fuzz.sh <target|all> [--seconds N]
# builds the fuzz console, instruments a copy of its build output per target, runs afl-fuzz on
# each target for N seconds (default 300) from its kept corpus, and reports what it found.
# Exits 1 if any target found a crash or a hang, 2 on a usage or set-up error.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
seconds=300
target=""
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds="${2:?--seconds needs a number}"; shift 2 ;;
    --seconds=*) seconds="${1#--seconds=}"; shift ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; exit 2 ;;
    *) [ -z "$target" ] || { echo "fuzz.sh: one target (or all), not '$target' and '$1'" >&2; exit 2; }; target="$1"; shift ;;
  esac
done
[ -n "$target" ] || { echo "usage: fuzz.sh <target|all> [--seconds N]" >&2; exit 2; }
case "$seconds" in ''|*[!0-9]*) echo "fuzz.sh: --seconds takes a whole number, not '$seconds'" >&2; exit 2 ;; esac
command -v afl-fuzz >/dev/null 2>&1 || { echo "fuzz.sh: afl-fuzz is not installed (Debian: apt-get install afl++)" >&2; exit 2; }

work="${CAMCUBE_FUZZ_DIR:-${TMPDIR:-/tmp}/camcube-fuzz}"
mkdir -p "$work"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1

echo "== building the fuzz console"
(cd "$repo" && dotnet tool restore >/dev/null)
rm -rf "$work/build"
dotnet publish "$here/CamCube.Fuzz.csproj" -c Release -o "$work/build" -v quiet -nologo >"$work/build.log" 2>&1 \
  || { cat "$work/build.log" >&2; echo "fuzz.sh: the build failed" >&2; exit 2; }
targets=$(dotnet "$work/build/CamCube.Fuzz.dll" --list | awk '{print $1}')
if [ "$target" = all ]; then
  run="$targets"
elif printf '%s\n' $targets | grep -qx -- "$target"; then
  run="$target"
else
  echo "fuzz.sh: no target '$target'; targets: $(echo $targets)" >&2
  exit 2
fi

# The assemblies whose code each target reaches; only these are instrumented, so the coverage
# afl-fuzz sees is the parser's and not the runtime's heartbeats.
assemblies() {
  case "$1" in
    memcached) echo CamCube.Memcached.dll CamCube.Services.Cache.dll ;;
    udp) echo CamCube.Transport.Udp.dll ;;
    packet) echo CamCube.Abstractions.dll CamCube.Runtime.dll CamCube.Services.Cache.dll CamCube.Services.Diagnostics.dll ;;
    cache) echo CamCube.Services.Cache.dll ;;
    reliable) echo CamCube.Services.Reliable.dll ;;
    kv-messages) echo CamCube.Services.KeyValue.dll CamCube.Messaging.dll ;;
    control) echo CamCube.Hosting.dll ;;
    node-settings) echo camcube.dll CamCube.Hosting.dll CamCube.Transport.Udp.dll CamCube.Abstractions.dll ;;
    cluster-key) echo CamCube.Transport.Udp.dll ;;
    cube-options) echo camcube.dll CamCube.Abstractions.dll ;;
    *) echo "fuzz.sh: no assemblies listed for target '$1'" >&2; return 1 ;;
  esac
}

# A machine nobody tuned for fuzzing: no CPU governor, crashes may go to a core handler, no free core to bind.
export AFL_SKIP_BIN_CHECK=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_AFFINITY=1 \
  AFL_NO_UI=1 AFL_SKIP_CRASHES=0 AFL_FORKSRV_INIT_TMOUT=60000 AFL_MAP_SIZE=65536
failed=0
summary=()
for t in $run; do
  dir="$work/$t"
  rm -rf "$dir"
  mkdir -p "$dir"
  cp -r "$work/build" "$dir/bin"
  for a in $(assemblies "$t"); do
    (cd "$repo" && dotnet sharpfuzz "$dir/bin/$a" >/dev/null) || { echo "fuzz.sh: instrumenting $a failed" >&2; exit 2; }
  done
  echo "== fuzzing $t for ${seconds} s (instrumented: $(assemblies "$t" | tr '\n' ' '))"
  set +e
  dictionary=()
  [ -f "$here/dictionaries/$t.dict" ] && dictionary=(-x "$here/dictionaries/$t.dict")
  afl-fuzz -i "$here/corpus/$t" -o "$dir/findings" -t 20000 -m none -V "$seconds" "${dictionary[@]}" \
    -- dotnet "$dir/bin/CamCube.Fuzz.dll" "$t" >"$dir/afl.log" 2>&1
  status=$?
  set -e
  stats="$dir/findings/default/fuzzer_stats"
  if [ ! -f "$stats" ]; then
    tail -n 30 "$dir/afl.log" >&2
    echo "fuzz.sh: afl-fuzz did not start on $t (exit $status); log: $dir/afl.log" >&2
    exit 2
  fi
  stat() { awk -F' *: *' -v k="$1" '$1 == k {print $2}' "$stats"; }
  crashes=$(find "$dir/findings/default/crashes" -type f -name 'id:*' 2>/dev/null | wc -l)
  hangs=$(find "$dir/findings/default/hangs" -type f -name 'id:*' 2>/dev/null | wc -l)
  line="$t: $(stat run_time) s, $(stat execs_done) execs ($(stat execs_per_sec)/s), corpus $(stat corpus_count), edges $(stat edges_found), crashes $crashes, hangs $hangs"
  echo "$line"
  summary+=("$line")
  if [ "$crashes" -gt 0 ] || [ "$hangs" -gt 0 ]; then
    failed=1
    echo "-- $t: replaying what afl-fuzz kept (findings in $dir/findings/default)"
    for f in "$dir/findings/default/crashes"/id:* "$dir/findings/default/hangs"/id:*; do
      [ -f "$f" ] || continue
      timeout 120 dotnet "$work/build/CamCube.Fuzz.dll" --replay "$t" "$f" 2>&1 | grep -E '^(FINDING|ok)' | cut -c1-400 || true
    done
  fi
done

echo "== fuzzing summary"
printf '%s\n' "${summary[@]}"
if [ "$failed" -ne 0 ]; then
  echo "fuzz.sh: findings; add each input to tests/CamCube.Fuzz/corpus/<target>/ as a regression test and fix it" >&2
fi
exit "$failed"
