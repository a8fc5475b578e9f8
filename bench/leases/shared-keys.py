#!/usr/bin/env python3
"""Sets of keys that other front-ends hold leases on, through the store's memcached front-ends.

Each of THREADS workers loops for SECONDS: it picks one of 40 keys, gets it through three random
front-ends of the 27 (each of which then holds a front-end lease on it), and sets it through a random
front-end, timing the set. Every set therefore makes the key's primary drop up to three leases first.
Prints sets/s and the set latency's p50, p90 and p99.

Usage: bench/leases/shared-keys.py KV_PORT_BASE SECONDS THREADS
(a cube started with `camcube cube up --kv-port KV_PORT_BASE`; front-end i listens on KV_PORT_BASE + i).
Bounded: it stops by itself after SECONDS, and every socket read times out after 10 s.
"""
import socket, threading, time, random, sys
base = int(sys.argv[1]); seconds = float(sys.argv[2]); threads = int(sys.argv[3]); nodes = 27; keys = [f"lk{i}" for i in range(40)]
lat = []; lock = threading.Lock(); stop = time.time() + seconds
def conn(i):
    s = socket.create_connection(("127.0.0.1", base + i)); s.settimeout(10); return s
def cmd(s, data, end):
    s.sendall(data); buf = b""
    while not any(buf.endswith(e) for e in end):
        chunk = s.recv(65536)
        if not chunk: raise IOError("closed")
        buf += chunk
    return buf
def worker(seed):
    r = random.Random(seed); socks = {}
    def get(i):
        if i not in socks: socks[i] = conn(i)
        return socks[i]
    mine = []
    while time.time() < stop:
        k = r.choice(keys)
        for _ in range(3):
            cmd(get(r.randrange(nodes)), f"get {k}\r\n".encode(), [b"END\r\n"])
        v = str(r.random()).encode()
        t = time.perf_counter()
        out = cmd(get(r.randrange(nodes)), b"set %s 0 0 %d\r\n%s\r\n" % (k.encode(), len(v), v), [b"STORED\r\n", b"ERROR\r\n"])
        if out.endswith(b"STORED\r\n"): mine.append(time.perf_counter() - t)
    with lock: lat.extend(mine)
ts = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
[t.start() for t in ts]; [t.join() for t in ts]
lat.sort(); n = len(lat)
print(f"sets {n} in {seconds}s: {n/seconds:.0f}/s, p50 {lat[n//2]*1e3:.2f} ms, p90 {lat[int(n*0.9)]*1e3:.2f} ms, p99 {lat[int(n*0.99)]*1e3:.2f} ms")
