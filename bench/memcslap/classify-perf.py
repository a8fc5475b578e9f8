#!/usr/bin/env python3
"""Classifies the samples of `perf record -g` files by what their stack is doing and by thread.

Usage: classify-perf.py FILE.data... (needs perf; JIT frames resolve through /tmp/perf-PID.map).
Each sample counts once: under the first rule of RULES that matches any frame of its stack (what
the thread was doing in the kernel or OpenSSL), else by its innermost frame (LEAF_RULES).
"""
import collections
import subprocess
import sys

RULES = [
    ("spin (sched_yield)", ("do_sched_yield", "sched_yield")),
    ("TCP send", ("tcp_sendmsg",)),
    ("TCP receive", ("tcp_recvmsg",)),
    ("UDP send", ("udp_sendmsg", "__sys_sendmmsg")),
    ("UDP receive", ("udp_recvmsg",)),
    ("futex (thread wake and wait)", ("futex",)),
    ("AES-GCM (libcrypto)", ("libcrypto",)),
    ("poll/epoll", ("ep_poll", "do_poll")),
    ("scheduler", ("schedule",)),
]
LEAF_RULES = [
    ("coreclr", ("libcoreclr", "libclrjit")),
    ("managed", ("[JIT]", "perf-", "System.Private.CoreLib", "System.", "CamCube", "[unknown]")),
    ("kernel, other", ("kernel",)),
]


def samples(path):
    run = subprocess.run(["perf", "script", "-i", path, "-F", "comm,ip,sym,dso"],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        # A recording cut short (perf stopped by its timeout on a loaded host) is reported, not fatal.
        print(f"{path}: perf script failed ({run.stderr.strip().splitlines()[-1:] or run.returncode})")
        return
    text = run.stdout
    current = None
    for line in text.splitlines():
        if not line.strip():
            if current:
                yield current
            current = None
        elif not line[0].isspace():
            current = (line.strip(), [])
        elif current is not None:
            current[1].append(line.strip())
    if current:
        yield current


def kind(frames):
    stack = " ".join(frames)
    for name, needles in RULES:
        if any(needle in stack for needle in needles):
            return name
    leaf = frames[0] if frames else ""
    for name, needles in LEAF_RULES:
        if any(needle in leaf for needle in needles):
            return name
    return "other"


for path in sys.argv[1:]:
    kinds, threads, total = collections.Counter(), collections.Counter(), 0
    for thread, frames in samples(path):
        kinds[kind(frames)] += 1
        threads[thread] += 1
        total += 1
    if total == 0:
        continue
    print(f"{path}: {total} samples")
    print("  threads: " + ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in threads.most_common(6)))
    print("  kinds:   " + ", ".join(f"{k} {100 * v / total:.0f}%" for k, v in kinds.most_common()))
