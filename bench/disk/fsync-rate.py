#!/usr/bin/env python3
"""How fast this machine's disk takes fsyncs: the floor under a store that fsyncs every write.

    python3 bench/disk/fsync-rate.py [--dir /tmp] [--writes 300] [--processes 1,4,16]

Each process appends a 200-byte record and fsyncs it, --writes times, to its own file under --dir
(removed at the end); per process count it prints the mean fsync time and the fsyncs per second
of all processes together. Bounded: --writes per process.
"""
import argparse
import multiprocessing
import os
import tempfile
import time


def run(path, writes):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        start = time.monotonic()
        for _ in range(writes):
            os.write(fd, b"x" * 200)
            os.fsync(fd)
        return (time.monotonic() - start) / writes
    finally:
        os.close(fd)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", default="/tmp")
    parser.add_argument("--writes", type=int, default=300)
    parser.add_argument("--processes", default="1,4,16")
    a = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=a.dir, prefix="fsync-rate-") as directory:
        for count in (int(p) for p in a.processes.split(",")):
            paths = [os.path.join(directory, f"f{i}") for i in range(count)]
            with multiprocessing.Pool(count) as pool:
                start = time.monotonic()
                means = pool.starmap(run, [(path, a.writes) for path in paths])
                elapsed = time.monotonic() - start
            print(f"{count} processes: mean fsync {1000 * sum(means) / len(means):.2f} ms, "
                  f"{count * a.writes / elapsed:.0f} fsyncs/s together")


if __name__ == "__main__":
    main()
