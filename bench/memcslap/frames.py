#!/usr/bin/env python3
"""Frames, CPU and store counters per request: the store's front-end against the cache's, same cube.

Where the time of a set or a get goes on the 27-process cube (issue 16's memcslap goal): one
27-process cube with both front-ends on node 0,0,0, warmed up, then for each test (set, get) and
each front-end one memcslap run; around each run the script sums, over the 27 nodes, the frames they
received (`camcube cube status --json`), the CPU time of the cube's processes (/proc) and the store's
counters (`kv-stats` on each node's control socket). Heartbeats are taken out of the frames: the
cube's frames over an idle second, measured first, times the run's length. For get, memcslap first
sets the keys it reads (one thread), which are counted as requests too, as in run.sh.

    python3 bench/memcslap/frames.py --cli out/camcube.dll [--ops 8000] [--concurrency 16] [--port-base 14400]

Loopback only, private ports (UDP P+300.., cache front-ends P+500.., store front-ends P+800..);
every step has a timeout and the cube is stopped at the end, however the script ends.
"""
import argparse
import glob
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time


def run(args, timeout=120):
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, check=False)


def ask(sock_path, command):
    with socket.socket(socket.AF_UNIX) as s:
        s.settimeout(5)
        s.connect(sock_path)
        s.sendall(command.encode() + b"\n")
        data = b""
        while not data.endswith(b"\n"):
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    return json.loads(data)


def frames(cli, state):
    status = json.loads(run(["dotnet", cli, "cube", "status", "--json", "--state-dir", state]).stdout)
    return sum(node["framesReceived"] for node in status)


def kv_stats(state):
    totals = {}
    for path in sorted(glob.glob(os.path.join(state, "nodes", "*.sock"))):
        for pair in ask(path, "kv-stats").get("result", "").split():
            name, value = pair.split("=")
            totals[name] = totals.get(name, 0) + int(value)
    return totals


def cpu_seconds(pids):
    ticks = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            ticks += int(fields[11]) + int(fields[12])
        except OSError:
            pass
    return ticks / os.sysconf("SC_CLK_TCK")


def memcslap(port, test, concurrency, ops):
    out = run(["memcslap", f"--servers=127.0.0.1:{port}", f"--test={test}", f"--concurrency={concurrency}",
               f"--execute-number={ops // concurrency}"], timeout=300).stdout
    done = re.search(rf"Time to {test} +(\d+) keys by +\d+ threads: +([0-9.]+) seconds", out)
    loaded = re.search(r"Time to set +(\d+) keys: ", out)
    if done is None:
        sys.exit(f"memcslap {test} on {port} gave no result:\n{out}")
    return int(done.group(1)), float(done.group(2)), int(loaded.group(1)) if loaded else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", required=True, help="a Release build of camcube.dll")
    parser.add_argument("--ops", type=int, default=8000)
    parser.add_argument("--concurrency", type=int, default=16)
    parser.add_argument("--port-base", type=int, default=14400)
    a = parser.parse_args()
    udp, cache, store = a.port_base + 300, a.port_base + 500, a.port_base + 800
    state = tempfile.mkdtemp(prefix="cc-frames-")
    try:
        up = run(["dotnet", a.cli, "cube", "up", "--detach", "--state-dir", state, "--base-port", str(udp),
                  "--memcached-port", str(cache), "--kv-port", str(store)])
        if up.returncode != 0:
            sys.exit(f"cube up failed: {up.stdout}{up.stderr}")
        pids = run(["pgrep", "-f", "--", f"--CamCube:BasePort={udp}( |$)"]).stdout.split()
        for port in (cache, store):
            for test in ("set", "get", "set", "get"):
                memcslap(port, test, a.concurrency, a.ops // 4)

        before, start = frames(a.cli, state), time.monotonic()
        time.sleep(2)
        idle_per_second = (frames(a.cli, state) - before) / (time.monotonic() - start)
        print(f"idle cube: {idle_per_second:.0f} frames/s (heartbeats); {len(pids)} node processes; "
              f"machine: nproc={os.cpu_count()}, load {os.getloadavg()[0]:.1f}")
        print("| front-end | test | conc. | requests | ops/s | frames/request | CPU us/request | store counters per request |")
        print("|---|---|--:|--:|--:|--:|--:|---|")
        for test in ("set", "get"):
            for name, port in (("cache", cache), ("store", store)):
                f0, c0, k0, t0 = frames(a.cli, state), cpu_seconds(pids), kv_stats(state), time.monotonic()
                ops, secs, loaded = memcslap(port, test, a.concurrency, a.ops)
                f1, c1, k1, t1 = frames(a.cli, state), cpu_seconds(pids), kv_stats(state), time.monotonic()
                requests = ops + loaded
                data_frames = (f1 - f0) - idle_per_second * (t1 - t0)
                counters = ", ".join(f"{k} {(k1[k] - k0.get(k, 0)) / requests:.2f}" for k in
                                     ("WritesAcknowledged", "AcceptsSent", "CommitsOnLoop", "CommitsOnThread", "TakeOvers", "ReadsUnderLease", "ReadConfirms", "ReadsFromFrontEndLease", "FrontEndLeasesGranted", "FrontEndLeasesDropped", "FrontEndLeaseWaits")
                                     if k1.get(k, 0) - k0.get(k, 0))
                print(f"| {name} | {test} | {a.concurrency} | {requests} | {ops / secs:.0f} | {data_frames / requests:.2f} | "
                      f"{(c1 - c0) * 1e6 / requests:.0f} | {counters or '-'} |")
    finally:
        run(["dotnet", a.cli, "cube", "down", "--state-dir", state])
        subprocess.run(["rm", "-rf", state], check=False)


if __name__ == "__main__":
    main()
