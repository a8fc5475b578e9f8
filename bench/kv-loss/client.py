# One client of bench/kv-loss/run.sh: KeyValueUnderLossTests' calls on N keys through the store front-ends
# of nodes 0, 25 and 5 (0,0,0, 1,2,2, 2,1,0) of a 3x3x3 cube; usage: client.py BASE_KV_PORT N PREFIX
import socket, sys, time
base = int(sys.argv[1]); n = int(sys.argv[2]); prefix = sys.argv[3]
fes = [0, 25, 5]
class C:
    def __init__(s, port):
        s.s = socket.create_connection(("127.0.0.1", port)); s.s.settimeout(30); s.buf = b""
    def line(s):
        while b"\r\n" not in s.buf:
            d = s.s.recv(65536)
            if not d: raise Exception("closed")
            s.buf += d
        l, s.buf = s.buf.split(b"\r\n", 1); return l.decode()
    def cmd(s, c, data):
        s.s.sendall(f"{c}\r\n{data}\r\n".encode()); return s.line()
    def get(s, verb, key):
        s.s.sendall(f"{verb} {key}\r\n".encode()); h = s.line()
        if h == "END": return None
        if not h.startswith("VALUE"): return (h, None)
        d = s.line(); e = s.line(); return (h, d)
cs = [C(base + f) for f in fes]
bad = 0; slow = []
for i in range(n):
    key = f"{prefix}:{i}"; c = cs[i % 3]
    steps = []
    def t(name, f):
        s = time.time(); r = f(); el = time.time() - s
        if el > 1.0: slow.append((key, name, round(el, 2), r))
        return r
    r1 = t("set", lambda: c.cmd(f"set {key} 0 0 3", "one"))
    r2 = t("gets", lambda: c.get("gets", key))
    u = r2[0].split(" ")[4] if r2 and r2[1] is not None else "0"
    r3 = t("cas", lambda: c.cmd(f"cas {key} 0 0 3 {u}", "two"))
    r4 = t("cas2", lambda: c.cmd(f"cas {key} 0 0 5 {u}", "three"))
    r5 = t("get", lambda: cs[(i + 1) % 3].get("get", key))
    ok = r1 == "STORED" and r2 and r2[1] == "one" and r3 == "STORED" and r4 == "EXISTS" and r5 and r5[1] == "two"
    if not ok:
        bad += 1; print("BAD", key, r1, r2, r3, r4, r5, flush=True)
print("done", n, "bad", bad, "slow", len(slow))
for s in slow: print("SLOW", s)
