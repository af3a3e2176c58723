#!/usr/bin/env python3
"""Instructions of one program run counted under qemu-user, for programs
callgrind cannot measure: where the kernel does not run i386 programs and
binfmt_misc hands them to qemu-user, valgrind's x86 tool runs under qemu
too and stops ("run_innerloop detected host state invariant failure").

  qemucount.py [--qemu QEMU] [--method auto|plugin|log] [--plugin PATH]
               [--counter PATH] PROG [ARGS...]

prints the guest instructions PROG executed.  Without --qemu, the
emulator binfmt_misc runs PROG with is used; PROG must be emulated then.

Two counters, which give the same count:
- plugin (qinsn.c): a TCG plugin adds each translated block's instruction
  count inline every time the block runs (-d nochain, so that blocks are
  translated as for the log counter).  It needs a qemu built with
  plugin support, which the static qemu binfmt uses is not: the dynamic
  qemu of the same name without "-static" (Debian's qemu-user) runs the
  program instead, with the same argv, environment and working directory.
  About as fast as the plain run under qemu.
- log (qcount.c): qemu's in_asm and exec logs, without block chaining,
  streamed through a pipe; each block's instructions summed over the
  blocks executed.  Minutes per 100 M instructions.
auto (the default) uses the plugin and falls back to the log counter where
the plugin route is unavailable (no dynamic qemu, no C compiler, qemu
refusing the plugin) or inexact (a program with threads or children: the
plugin's adds are not atomic and each process reports its own total).
Both count what callgrind's Ir counts, with no cache simulation.
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BINFMT = "/proc/sys/fs/binfmt_misc"
COUNTER = os.path.abspath("build/bench/qbb-qcount")
PLUGIN = os.path.abspath("build/bench/qinsn.so")
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


def plugin_qemu(qemu):
    """The plugin-capable qemu for the emulator qemu (its name without
    "-static", beside it or in /usr/bin), or None."""
    name = os.path.basename(qemu)
    if name.endswith("-static"):
        name = name[:-len("-static")]
    for d in (os.path.dirname(qemu), "/usr/bin"):
        p = os.path.join(d, name)
        if os.path.isfile(p) and os.access(p, os.X_OK):
            return p
    return None


def ensure_plugin(path=None):
    """Builds qinsn.c as a host shared object (bench.mk's rule does the same
    for make bench) unless an up-to-date copy exists; returns its path, or
    None when it cannot be built."""
    out = os.path.abspath(path or PLUGIN)
    src = os.path.join(HERE, "qinsn.c")
    if os.path.exists(out) and os.path.getmtime(out) >= os.path.getmtime(src):
        return out
    os.makedirs(os.path.dirname(out), exist_ok=True)
    try:
        r = subprocess.run(["gcc", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-O2",
                            "-shared", "-fPIC", "-fvisibility=hidden", "-o", out, src],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        return None
    return out if r.returncode == 0 else None


def _run_error(rc, err):
    err = err.decode(errors="replace").strip().splitlines()
    return "exit %d%s" % (rc, ": " + err[-1][:200] if err else "")


def log_count(counter, qemu, argv, env=None, cwd=None, timeout=TIMEOUT):
    """The log counter (qcount.c): {"Ir", "blocks", "method": "qemu",
    "counter": "log", "emulator"} of one run of argv under qemu, or
    {"error": why}."""
    try:
        r = subprocess.run([counter, qemu] + list(argv), env=env, cwd=cwd,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {"error": "qemu count: %s" % e}
    f = r.stdout.split()
    if r.returncode != 0 or len(f) != 4:
        return {"error": "qemu count: " + _run_error(r.returncode, r.stderr)}
    ir, blocks, unknown, rc = (int(x) for x in f)
    if rc != 0:
        return {"error": "qemu count: the program exited %d" % rc}
    if unknown:
        return {"error": "qemu count: %d block executions with no listing" % unknown}
    return {"Ir": ir, "blocks": blocks, "method": "qemu", "counter": "log",
            "emulator": qemu}


def plugin_count(plugin, qemu, argv, env=None, cwd=None, timeout=TIMEOUT):
    """The plugin counter (qinsn.c) under qemu, which must take -plugin:
    {"Ir", "blocks", "method": "qemu", "counter": "plugin", "emulator"},
    {"error": why}, or {"unavailable": why} when the plugin gave no count
    or no exact one (the log counter can)."""
    with tempfile.TemporaryDirectory(prefix="qbb-qinsn.") as td:
        out = os.path.join(td, "count")
        try:
            # the program's output goes where launch.c sends it; its errors
            # are kept for the message (the count has a file of its own)
            # nochain: rep string instructions are translated as for the
            # block log (with chaining, one more pass of each with ECX 0)
            r = subprocess.run([qemu, "-d", "nochain",
                                "-plugin", "file=%s,out=%s" % (plugin, out)]
                               + list(argv), env=env, cwd=cwd,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               timeout=timeout)
        except (OSError, subprocess.TimeoutExpired) as e:
            return {"error": "qemu count: %s" % e}
        try:
            with open(out) as f:
                lines = f.read().splitlines()
        except OSError:
            lines = []
    if not lines:
        return {"unavailable": "no count from the plugin (%s)" % _run_error(r.returncode,
                                                                             r.stderr)}
    if r.returncode != 0:
        return {"error": "qemu count: the program exited %d" % r.returncode}
    f = lines[0].split()
    if len(lines) != 1 or len(f) != 3:
        return {"unavailable": "%d processes counted by the plugin" % len(lines)}
    ir, blocks, vcpus = (int(x) for x in f)
    if vcpus > 1:
        return {"unavailable": "%d threads: the plugin's count is not exact" % vcpus}
    return {"Ir": ir, "blocks": blocks, "method": "qemu", "counter": "plugin",
            "emulator": qemu}


def count(qemu, argv, env=None, cwd=None, timeout=TIMEOUT, method="auto",
          counter=None, plugin=None):
    """Instructions of one run of argv under the emulator qemu (binfmt's):
    {"Ir": instructions, "blocks": blocks executed, "method": "qemu",
    "counter": "plugin" or "log", "emulator": the qemu that ran it, and
    "fallback": why the log counter was used, where auto fell back}, or
    {"error": why}."""
    why = None
    if method in ("auto", "plugin"):
        pq = plugin_qemu(qemu)
        so = ensure_plugin(plugin) if pq else None
        if not pq:
            why = "no plugin-capable qemu for %s (Debian's qemu-user)" % qemu
        elif not so:
            why = "bench/qinsn.c did not build"
        else:
            r = plugin_count(so, pq, argv, env=env, cwd=cwd, timeout=timeout)
            if "unavailable" not in r:
                return r
            why = r["unavailable"]
        if method == "plugin":
            return {"error": "qemu count: " + why}
    r = log_count(ensure(counter), qemu, argv, env=env, cwd=cwd, timeout=timeout)
    if why and "error" not in r:
        r["fallback"] = why
    return r


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--qemu")
    ap.add_argument("--method", choices=("auto", "plugin", "log"), default="auto")
    ap.add_argument("--counter", default=COUNTER)
    ap.add_argument("--plugin", default=PLUGIN)
    ap.add_argument("-v", "--verbose", action="store_true",
                    help="also print the counter used and the blocks executed")
    ap.add_argument("prog")
    ap.add_argument("args", nargs=argparse.REMAINDER)
    a = ap.parse_args(argv)
    qemu = a.qemu or emulator(a.prog)
    if not qemu:
        print("qemucount: %s runs natively; name an emulator with --qemu" % a.prog,
              file=sys.stderr)
        return 2
    r = count(qemu, [a.prog] + a.args, method=a.method, counter=a.counter,
              plugin=a.plugin)
    if "error" in r:
        print("qemucount: %s: %s" % (a.prog, r["error"]), file=sys.stderr)
        return 1
    print(r["Ir"])
    if a.verbose:
        print("counter: %s (%s)%s; blocks executed: %d" % (
            r["counter"], r["emulator"],
            "; fallback: " + r["fallback"] if "fallback" in r else "", r["blocks"]),
            file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
