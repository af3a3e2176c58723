#!/usr/bin/env python3
"""Would a recorded start-up working set pay?  The measurement behind the
decision (docs/BENCHMARKS.md, "Cold start-up").

  workingset.py --loader L DIR [--runs 9]

DIR holds an optimized program `app` and its libraries (*.so).  First the
pages one cold run touches are recorded: with the device's readahead set to
0 (restored afterwards) a fault or read brings in only its own page, so what
is resident after the run is what the run touched.  Then, cold each time
(page cache dropped), interleaved:

  record        the loader as it is: it asks for the closure linkopt recorded
  working set   the same run, early reads off (LD_NOPREFETCH=1), after the
                harness asked for exactly the recorded pages
  musl          musl's loader (reference)

and prints each one's median wall time (min-max) and the bytes of DIR's
files resident after the run.  Needs root (drop_caches, read_ahead_kb).
"""

import argparse
import ctypes
import mmap
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cold  # noqa: E402

PAGE = mmap.PAGESIZE


def resident_pages(path):
    """Page numbers of path in the page cache (mincore)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size
        c = cold.libc()
        addr = c.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        if not size or addr == ctypes.c_void_p(-1).value:
            return []
        n = (size + PAGE - 1) // PAGE
        vec = (ctypes.c_ubyte * n)()
        ok = c.mincore(addr, size, vec) == 0
        c.munmap(addr, size)
        return [i for i in range(n) if vec[i] & 1] if ok else []
    finally:
        os.close(fd)


def ra_file(path):
    st = os.stat(path)
    d = os.path.realpath("/sys/dev/block/%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev)))
    for q in (d, os.path.dirname(d)):
        f = os.path.join(q, "queue", "read_ahead_kb")
        if os.path.exists(f):
            return f
    raise SystemExit("workingset.py: no read_ahead_kb for the device of " + path)


def ranges(pages):
    out = []
    for p in pages:
        if out and out[-1][0] + out[-1][1] == p * PAGE:
            out[-1][1] += PAGE
        else:
            out.append([p * PAGE, PAGE])
    return out


def run(loader, d, env_extra, announce=None):
    env = {"PATH": "/usr/bin:/bin", "LC_ALL": "C"}
    env.update(env_extra)
    cold.drop_caches()
    t0 = time.perf_counter()
    for path, rs in (announce or {}).items():
        fd = os.open(path, os.O_RDONLY)
        for off, ln in rs:
            os.posix_fadvise(fd, off, ln, os.POSIX_FADV_WILLNEED)
        os.close(fd)
    subprocess.run([loader, "./app"], cwd=d, env=env, stdout=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - t0) * 1000


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dir")
    ap.add_argument("--loader", required=True)
    ap.add_argument("--musl", default="/lib/ld-musl-x86_64.so.1")
    ap.add_argument("--runs", type=int, default=9)
    a = ap.parse_args()
    d = os.path.abspath(a.dir)
    files = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".so") or f == "app")
    q = ra_file(files[0])
    with open(q) as f:
        ra = f.read().strip()
    try:
        with open(q, "w") as f:
            f.write("0\n")
        cold.drop_caches()
        subprocess.run([a.loader, "./app"], cwd=d, env={"LD_NOPREFETCH": "1"}, stdout=subprocess.DEVNULL,
                       check=True)
        ws = {p: ranges(resident_pages(p)) for p in files}
    finally:
        with open(q, "w") as f:
            f.write(ra + "\n")
    total = sum(ln for rs in ws.values() for _, ln in rs)
    size = sum(os.path.getsize(p) for p in files)
    print("read_ahead_kb %s; working set: %.1f MiB of %.1f MiB in %d files" % (ra, total / 2**20, size / 2**20,
                                                                              len(files)))
    variants = [("record", a.loader, {}, None), ("working set", a.loader, {"LD_NOPREFETCH": "1"}, ws),
                ("musl", a.musl, {}, None)]
    times = {v[0]: [] for v in variants}
    res = {v[0]: [] for v in variants}
    for _ in range(a.runs):
        for name, loader, env, ann in variants:
            times[name].append(run(loader, d, env, ann))
            res[name].append(sum(cold.resident(p) for p in files))
    for name, *_ in variants:
        t = sorted(times[name])
        print("%-12s median %6.1f ms (%.1f-%.1f)  resident %.1f MiB" % (
            name, statistics.median(t), t[0], t[-1], statistics.median(res[name]) / 2**20))


if __name__ == "__main__":
    main()
