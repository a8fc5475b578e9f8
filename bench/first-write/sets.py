#!/usr/bin/env python3
"""Times memcached-protocol sets through one front-end: of keys never written before ("fresh": each
is its key's first write) or of keys written once before, uncounted ("rewrite"). Prints one JSON
line: the mode, the concurrency, ops/s and the latency percentiles in milliseconds.

    python3 bench/first-write/sets.py --port 11311 --mode fresh --sets 400 --concurrency 1

Each of --concurrency threads has its own connection and sets --sets / concurrency keys of its own,
one at a time; every reply must be STORED (anything else stops the run with an error)."""
import argparse
import json
import os
import socket
import sys
import threading
import time


def connect(port):
    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return s, s.makefile("rb")


def set_key(s, f, key, value):
    s.sendall(b"set %s 0 0 %d\r\n%s\r\n" % (key, len(value), value))
    line = f.readline()
    if line != b"STORED\r\n":
        raise RuntimeError(f"set {key.decode()} answered {line!r}")


def worker(port, keys, value, rewrite, latencies, errors):
    try:
        s, f = connect(port)
        if rewrite:
            for key in keys:
                set_key(s, f, key, value)
        for key in keys:
            start = time.perf_counter()
            set_key(s, f, key, value)
            latencies.append((time.perf_counter() - start) * 1000)
        s.close()
    except (OSError, RuntimeError) as e:
        errors.append(str(e))


def percentile(sorted_values, p):
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p))]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--mode", choices=["fresh", "rewrite"], required=True)
    parser.add_argument("--sets", type=int, default=400)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--value-bytes", type=int, default=1024)
    args = parser.parse_args()
    if args.sets < args.concurrency or args.concurrency < 1 or args.value_bytes < 1:
        parser.error("--sets must be at least --concurrency, which must be at least 1, and --value-bytes at least 1")

    value = os.urandom(args.value_bytes // 2 + 1).hex().encode()[: args.value_bytes]
    run = f"{os.getpid()}-{time.time_ns()}"
    per_thread = args.sets // args.concurrency
    latencies, errors, threads = [], [], []
    for t in range(args.concurrency):
        keys = [f"fw-{run}-{args.mode}-t{t}-k{i}".encode() for i in range(per_thread)]
        threads.append(threading.Thread(target=worker, args=(args.port, keys, value, args.mode == "rewrite", latencies, errors)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    if errors:
        print(f"error: {errors[0]}", file=sys.stderr)
        sys.exit(1)
    latencies.sort()
    # The timed sets' rate: the threads ran side by side, each one set at a time.
    ops = len(latencies) / (sum(latencies) / 1000 / args.concurrency)
    print(json.dumps({
        "mode": args.mode, "concurrency": args.concurrency, "sets": len(latencies),
        "ops_per_s": round(ops, 1),
        "p50_ms": round(percentile(latencies, 0.5), 2), "p90_ms": round(percentile(latencies, 0.9), 2),
        "p99_ms": round(percentile(latencies, 0.99), 2)}))


if __name__ == "__main__":
    main()
