#!/usr/bin/env python3
"""Instructions of one program run counted under qemu-user, for programs
callgrind cannot measure: where the kernel does not run i386 programs and
binfmt_misc hands them to qemu-user, valgrind's x86 tool runs under qemu
too and stops ("run_innerloop detected host state invariant failure").

  qemucount.py [--qemu QEMU] [--counter PATH] PROG [ARGS...]

prints the guest instructions PROG executed.  Without --qemu, the
emulator binfmt_misc runs PROG with is used; PROG must be emulated then.

The count is qcount.c's: each translated block's guest instructions, summed
over the blocks executed (qemu's in_asm and exec logs, without block
chaining).  It counts what callgrind's Ir counts, with no cache simulation.
"""

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
BINFMT = "/proc/sys/fs/binfmt_misc"
COUNTER = os.path.abspath("build/bench/qbb-qcount")
TIMEOUT = 3600


def _entry(path):
    """A binfmt_misc entry as a dict of its lines, or None."""
    try:
        with open(path) as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    e = {}
    for line in lines:
        k, _, val = line.partition(" ")
        e[k.rstrip(":")] = val.strip()
    e["enabled"] = "enabled" in lines
    return e


def emulator(exe):
    """The qemu-user interpreter the kernel runs exe with (an enabled
    binfmt_misc magic entry matching exe's header), or None when exe runs
    natively."""
    st = _entry(os.path.join(BINFMT, "status"))
    if st is None or not st["enabled"]:
        return None
    try:
        with open(exe, "rb") as f:
            head = f.read(256)
        names = sorted(os.listdir(BINFMT))
    except OSError:
        return None
    for n in names:
        if n in ("register", "status"):
            continue
        e = _entry(os.path.join(BINFMT, n))
        if not e or not e["enabled"] or "magic" not in e:
            continue
        magic = bytes.fromhex(e["magic"])
        mask = bytes.fromhex(e.get("mask", "ff" * len(magic)))
        off = int(e.get("offset", "0"))
        got = head[off:off + len(magic)]
        if len(got) == len(magic) and all(
                (g & m) == (x & m) for g, m, x in zip(got, mask, magic)):
            interp = e.get("interpreter", "")
            return interp if os.path.basename(interp).startswith("qemu-") else None
    return None


def ensure(path=None):
    """Builds qcount.c (static, musl, as the launcher) unless an up-to-date
    copy exists; returns its path."""
    out = os.path.abspath(path or COUNTER)
    src = os.path.join(HERE, "qcount.c")
    if os.path.exists(out) and os.path.getmtime(out) >= os.path.getmtime(src):
        return out
    os.makedirs(os.path.dirname(out), exist_ok=True)
    subprocess.run(["musl-gcc", "-static", "-std=gnu11", "-Wall", "-Wextra", "-Werror",
                    "-O2", "-o", out, src], check=True)
    return out


def count(counter, qemu, argv, env=None, cwd=None, timeout=TIMEOUT):
    """{"Ir": instructions, "blocks": blocks executed, "method": "qemu"}
    of one run of argv under qemu, or {"error": why}."""
    try:
        r = subprocess.run([counter, qemu] + list(argv), env=env, cwd=cwd,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {"error": "qemu count: %s" % e}
    f = r.stdout.split()
    if r.returncode != 0 or len(f) != 4:
        err = r.stderr.decode(errors="replace").strip().splitlines()
        return {"error": "qemu count: exit %d%s" % (r.returncode,
                                                  ": " + err[-1][:200] if err else "")}
    ir, blocks, unknown, rc = (int(x) for x in f)
    if rc != 0:
        return {"error": "qemu count: the program exited %d" % rc}
    if unknown:
        return {"error": "qemu count: %d block executions with no listing" % unknown}
    return {"Ir": ir, "blocks": blocks, "method": "qemu", "emulator": qemu}


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qemu")
    ap.add_argument("--counter", default=COUNTER)
    ap.add_argument("prog")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    qemu = a.qemu or emulator(a.prog)
    if not qemu:
        print("qemucount: %s runs natively; name an emulator with --qemu" % a.prog,
              file=sys.stderr)
        return 2
    r = count(ensure(a.counter), qemu, [a.prog] + a.args)
    if "error" in r:
        print("qemucount: %s: %s" % (a.prog, r["error"]), file=sys.stderr)
        return 1
    print(r["Ir"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
