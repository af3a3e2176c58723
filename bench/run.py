#!/usr/bin/env python3
"""Run a built workload under every loader variant, side by side.

  run.py [--runs 10] [--warmup 2] [--callgrind] [--stats] [--variants a,b]
         -o OUT.json WORKLOAD_DIR...

Variants: glibc's ld.so lazy and with LD_BIND_NOW=1, musl's loader,
quickbind without tables, with all tables, with all tables but the
program's launch record (LD_NORECORD), and with each fast path alone (all
tables, the other two and the record switched off with LD_NODIRECT /
LD_NOHASHVALS / LD_NOSYMCACHE / LD_NORECORD); when named in --variants, also all tables with the global
table never or always built (qb-all-gt0, qb-all-gt1: LD_GLOBALTAB=0 / 1).  A variant is measured only after its output in "check"
mode (every binding exercised) equals musl's; otherwise it is reported as
failed with the reason, never measured.  i386 workloads (gen.py --arch
i386) run the same way, with --loader naming the i386 loader: the static
64-bit launcher execs 32-bit programs like any other.

Each timed run also records the child's user and system time and its
minor and major page faults (the launcher's rusage fields); one further
run per variant under `strace -f -c` counts its system calls (the
execve included), by name.  No system call is counted for a program the
kernel runs through qemu-user: strace would count the emulator's.

Every run of a measured program has a scratch working directory of its own
(a program that writes files, like zlib's example, writes them there).
Instructions come from callgrind, or, for a program the kernel hands to
qemu-user through binfmt_misc (i386 on a kernel without 32-bit syscalls,
where valgrind cannot run it), from qemucount.py's count of the guest
instructions qemu executes (a TCG plugin under the plugin-capable build of
that emulator, else qemu's block log), with the same environment,
arguments and working directory.
"""

import argparse
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import qemucount

# name, build directory, program suffix, extra environment, label
VARIANTS = [
    ("glibc-lazy", "glibc", "", {}, "glibc ld.so (lazy)"),
    ("glibc-now", "glibc", "", {"LD_BIND_NOW": "1"}, "glibc ld.so LD_BIND_NOW=1"),
    ("musl", "musl", "", {}, "musl ld.so"),
    ("qb-none", "musl", "-qb", {}, "quickbind, no tables"),
    ("qb-direct", "musl-opt", "-qb", {"LD_NOHASHVALS": "1", "LD_NOSYMCACHE": "1", "LD_NORECORD": "1"},
     "quickbind, direct binding only"),
    ("qb-hashvals", "musl-opt", "-qb", {"LD_NODIRECT": "1", "LD_NOSYMCACHE": "1", "LD_NORECORD": "1"},
     "quickbind, precomputed hashes only"),
    ("qb-symcache", "musl-opt", "-qb", {"LD_NODIRECT": "1", "LD_NOHASHVALS": "1", "LD_NORECORD": "1"},
     "quickbind, sorted tables / symbol cache only"),
    ("qb-norecord", "musl-opt", "-qb", {"LD_NORECORD": "1"}, "quickbind, all tables but the launch record"),
    ("qb-all", "musl-opt", "-qb", {}, "quickbind, all tables"),
]
# Run only where named (the library-count sweep): all tables with the
# loader's global table never built and always built, so that both
# choices of its cost model are measured side by side.
EXTRA_VARIANTS = [
    ("qb-all-gt0", "musl-opt", "-qb", {"LD_GLOBALTAB": "0"}, "quickbind, all tables, LD_GLOBALTAB=0"),
    ("qb-all-gt1", "musl-opt", "-qb", {"LD_GLOBALTAB": "1"}, "quickbind, all tables, LD_GLOBALTAB=1"),
]
VARIANT_NAMES = [v[0] for v in VARIANTS + EXTRA_VARIANTS]
DEFAULT_NAMES = [v[0] for v in VARIANTS]
LABELS = {v[0]: v[4] for v in VARIANTS + EXTRA_VARIANTS}
# The i386 column: the reference loaders and quickbind without and with all
# tables (each fast path alone is measured on x86_64 only, to keep the run
# short).
I386_VARIANTS = ["glibc-lazy", "glibc-now", "musl", "qb-none", "qb-all"]

# The environment of every run: nothing inherited, so a stray LD_* of the
# caller cannot change what is measured.
BASE_ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C"}
CHECK_TIMEOUT = 120
# functions listed per profiled variant (bench.py profiles quickbind on the
# main office workload, with and without tables)
PROFILE_TOP = 15


def variant_cmds(wdir, meta, prog="app", only=None, cwd=None):
    """cwd: the working directory of every run (run_workload gives each
    workload a scratch directory)."""
    p = meta["programs"][prog]
    out = []
    for name, sub, suffix, env, label in VARIANTS + EXTRA_VARIANTS:
        if name not in (only if only is not None else DEFAULT_NAMES):
            continue
        exe = os.path.abspath(os.path.join(wdir, sub, prog + suffix))
        e = dict(BASE_ENV)
        e.update(env)
        out.append({"name": name, "label": label, "exe": exe, "env": e, "cwd": cwd,
                    "args": p["args"], "check_args": p["check_args"]})
    return out


STATIC_LABEL = "static executable (musl-gcc -static)"


def static_cmds(wdir, meta, prog="app", cwd=None):
    """The workload's static build (gen.py's OUT/static) as a variant, in
    a list, or [] when it has none."""
    rel = (meta.get("static") or {}).get(prog)
    if not rel:
        return []
    p = meta["programs"][prog]
    return [{"name": "static", "label": STATIC_LABEL, "cwd": cwd, "env": dict(BASE_ENV),
             "exe": os.path.abspath(os.path.join(wdir, rel)),
             "args": p["args"], "check_args": p["check_args"]}]


def checked_refs(res, vs, log):
    """The check run of reference programs (static_cmds) against res's
    reference output: res["references"] gets their status; returns those
    that passed."""
    refs = res.setdefault("references", {})
    live = []
    for v in vs:
        why = None if os.access(v["exe"], os.X_OK) else "program missing"
        if why is None:
            out, why = run_check(v)
            ref = res.get("reference_output")
            if why is None and ref is not None and out != ref:
                why = "wrong output %r (expected %r)" % (out.strip()[:60], ref.strip()[:60])
        refs[v["name"]] = {"status": "failed: " + why if why else "ok", "label": v["label"]}
        if why:
            log("  %s: %s failed: %s" % (os.path.basename(res["dir"]), v["name"], why))
        else:
            live.append(v)
    return live


def preflight(v, meta, loader):
    """Why v cannot run (a string), or None."""
    if v["name"].startswith("qb-"):
        if not os.access(loader, os.X_OK):
            return "loader not built"
        if "/musl-opt/" in v["exe"] and meta.get("linkopt") != "ok":
            return meta.get("linkopt") or "linkopt not run"
    if not os.access(v["exe"], os.X_OK):
        return "program missing"
    return None


def run_check(v):
    try:
        r = subprocess.run([v["exe"]] + v["check_args"], env=v["env"], cwd=v["cwd"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=CHECK_TIMEOUT)
    except subprocess.TimeoutExpired:
        return None, "timed out"
    except OSError as e:
        return None, str(e)
    if r.returncode != 0:
        err = r.stderr.decode(errors="replace").strip().splitlines()
        why = ("exit %d" % r.returncode) if r.returncode > 0 else \
            ("signal %d" % -r.returncode)
        return None, why + (": " + err[-1][:200] if err else "")
    return r.stdout.decode(errors="replace"), None


HERE = os.path.dirname(os.path.abspath(__file__))
LAUNCHER = os.path.abspath("build/bench/qbb-launch")


def ensure_launcher(path=None):
    """Builds bench/launch.c (static, musl) unless an up-to-date copy exists."""
    global LAUNCHER
    LAUNCHER = os.path.abspath(path or LAUNCHER)
    src = os.path.join(HERE, "launch.c")
    if os.path.exists(LAUNCHER) and os.path.getmtime(LAUNCHER) >= os.path.getmtime(src):
        return
    os.makedirs(os.path.dirname(LAUNCHER), exist_ok=True)
    subprocess.run(["musl-gcc", "-static", "-std=gnu11", "-Wall", "-Wextra", "-Werror",
                    "-O2", "-o", LAUNCHER, src], check=True)


# The launcher's fields after wall ns, peak RSS and exit status.
KERNEL_FIELDS = ("user_us", "sys_us", "minflt", "majflt")


def spawn_measured(v):
    """One exec-to-exit run through the launcher (see launch.c for why):
    (wall seconds, peak RSS KiB, exit status, {KERNEL_FIELDS: value})."""
    r = subprocess.run([LAUNCHER, v["exe"]] + v["args"], env=v["env"], cwd=v["cwd"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        return None, None, "launch failed: " + r.stderr.decode(errors="replace").strip(), {}
    f = r.stdout.split()
    return int(f[0]) / 1e9, int(f[1]), int(f[2]), dict(zip(KERNEL_FIELDS, map(int, f[3:])))


def spawn_timed(v):
    """(wall seconds, peak RSS KiB, exit status) of spawn_measured."""
    return spawn_measured(v)[:3]


def kernel_summary(runs):
    """Medians (and means: the user/system split is sampled, see
    docs/BENCHMARKS.md) of the kernel fields of the timed runs."""
    out = {}
    for k in KERNEL_FIELDS:
        xs = [r[k] for r in runs if k in r]
        if xs:
            out[k] = {"median": statistics.median(xs), "mean": statistics.fmean(xs)}
    return out


def time_variants(vs, runs, warmup, seed=0):
    """Interleaved runs: every round runs each variant once, in a shuffled
    order, so drift of the machine spreads over all variants alike."""
    rng = random.Random(seed)
    samples = {v["name"]: [] for v in vs}
    rss = {v["name"]: [] for v in vs}
    kern = {v["name"]: [] for v in vs}
    bad = {}
    for rnd in range(warmup + runs):
        order = list(vs)
        rng.shuffle(order)
        for v in order:
            if v["name"] in bad:
                continue
            t, m, rc, k = spawn_measured(v)
            if rc != 0:
                bad[v["name"]] = rc if isinstance(rc, str) else "exit %d in timed run" % rc
                continue
            if rnd >= warmup:
                samples[v["name"]].append(t)
                rss[v["name"]].append(m)
                kern[v["name"]].append(k)
    out = {}
    for v in vs:
        n = v["name"]
        if n in bad:
            out[n] = {"status": "failed: " + bad[n]}
            continue
        s = sorted(samples[n])
        q = statistics.quantiles(s, n=4) if len(s) >= 2 else [s[0]] * 3
        out[n] = {"status": "ok", "runs": len(s),
                  "wall_ms": {"median": 1e3 * statistics.median(s),
                              "min": 1e3 * s[0], "max": 1e3 * s[-1],
                              "q1": 1e3 * q[0], "q3": 1e3 * q[2]},
                  "rss_kb": int(statistics.median(rss[n])),
                  "kernel": kernel_summary(kern[n])}
    return out


# Set False (bench.py --no-strace) to leave system calls uncounted.
COUNT_SYSCALLS = True


def traced_run(argv, v, out, timeout):
    """One run of variant v under a tool (argv, the tool first) that writes
    its findings to the file out: None when it did, else {"error"}."""
    try:
        r = subprocess.run(argv, env=v["env"], cwd=v["cwd"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {"error": str(e)}
    if r.returncode != 0 or not os.path.exists(out):
        err = r.stderr.decode(errors="replace").strip().splitlines()
        return {"error": "%s exit %d%s" % (os.path.basename(argv[0]), r.returncode,
                                           ": " + err[-1][:200] if err else "")}
    return None


def syscalls(v, tmpdir):
    """System calls of one run under strace -f -c, with the environment,
    arguments and working directory of the timed runs: {"total", "errors",
    "calls": {name: count}}, or {"error"} / {"skipped"}."""
    strace = shutil.which("strace")
    if not strace:
        return {"skipped": "strace not installed (scripts/deps.sh installs it)"}
    if qemucount.emulator(v["exe"]):
        return {"skipped": "runs under qemu-user, whose own system calls strace would count"}
    f = os.path.join(tmpdir, "strace.%s.out" % v["name"].replace("/", "_"))
    failed = traced_run([strace, "-f", "-c", "-o", f, "--", v["exe"]] + v["args"], v, f, 600)
    if failed:
        return failed
    calls, total, errors = {}, None, 0
    with open(f) as fh:
        for line in fh:
            # "% time seconds usecs/call calls [errors] syscall": the
            # errors column is blank where there were none
            t = line.split()
            if len(t) < 5 or not t[3].isdigit():
                continue
            if t[-1] == "total":
                total = int(t[3])
                errors = int(t[4]) if len(t) == 6 else 0
            else:
                calls[t[-1]] = int(t[3])
    os.unlink(f)
    if total is None:
        return {"error": "no total in strace's summary"}
    return {"total": total, "errors": errors, "calls": calls}


def annotate(f, top=PROFILE_TOP):
    """The functions with the most instructions (exclusive), as
    [Ir, "file:function", object] rows, from callgrind_annotate."""
    try:
        r = subprocess.run(["callgrind_annotate", "--show=Ir", "--inclusive=no", f],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=600)
    except (OSError, subprocess.TimeoutExpired):
        return None
    rows = []
    for line in r.stdout.decode(errors="replace").splitlines():
        m = re.match(r"^\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S+)(?:\s+\[(.*)\])?\s*$", line)
        if not m or m.group(2) == "PROGRAM" or "PROGRAM TOTALS" in line:
            continue
        where = m.group(2)
        # file paths differ between machines: keep the file's name
        if ":" in where:
            path, fn = where.rsplit(":", 1)
            where = "%s:%s" % (os.path.basename(path), fn)
        rows.append([int(m.group(1).replace(",", "")), where,
                     os.path.basename(m.group(3) or "")])
        if len(rows) >= top:
            break
    return rows


def ir_by_object(f):
    """Exclusive instructions per object (full path) of a callgrind output
    file, read from its cost lines (callgrind's format: "ob=" names the
    object of the costs that follow, a "calls=" line's cost line is the
    callee's inclusive cost and is left out); None when unreadable."""
    names, objs = {}, {}
    npos, iri, cur, skip = 1, 0, "?", False
    try:
        fh = open(f)
    except OSError:
        return None
    with fh:
        for line in fh:
            c = line[:1]
            if c.isdigit() or c in "+-*":
                if skip:
                    skip = False
                    continue
                fields = line.split()
                if len(fields) > npos + iri:
                    objs[cur] = objs.get(cur, 0) + int(fields[npos + iri])
            elif line.startswith(("ob=", "cob=")):
                # one name table for both: "(id) name" defines, "(id)" refers
                m = re.match(r"c?ob=(?:\((\d+)\))?\s*(.*)$", line.rstrip("\n"))
                if m.group(1) and m.group(2):
                    names[m.group(1)] = m.group(2)
                if c == "o":
                    cur = names.get(m.group(1), "?") if m.group(1) else m.group(2)
            elif line.startswith("calls="):
                skip = True
            elif line.startswith("positions:"):
                npos = len(line.split()) - 1
            elif line.startswith("events:"):
                ev = line.split()[1:]
                iri = ev.index("Ir") if "Ir" in ev else 0
    return objs or None


def loader_part(objs, wdir):
    """Of per-object instructions: those outside the workload's own
    program and libraries (the loader, which is also the libc, and the
    vDSO; valgrind's own preloaded code aside), or None."""
    if not objs:
        return None
    w = os.path.abspath(wdir) + os.sep
    return sum(n for o, n in objs.items()
               if not os.path.abspath(o).startswith(w) and "/valgrind/" not in o)


def callgrind(v, tmpdir, profile=False, objects=False):
    """Totals of one run under callgrind with the cache simulator; with
    profile, also the functions where the instructions go; with objects,
    the instructions of each object ("objects": {path: Ir})."""
    f = os.path.join(tmpdir, "cg.%s.out" % v["name"])
    argv = ["valgrind", "--tool=callgrind", "--cache-sim=yes", "-q",
            "--callgrind-out-file=" + f, v["exe"]] + v["args"]
    failed = traced_run(argv, v, f, 1800)
    if failed:
        return failed
    events = summary = None
    with open(f) as fh:
        for line in fh:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("summary:") or (line.startswith("totals:") and summary is None):
                summary = [int(x) for x in line.split()[1:]]
    prof = annotate(f) if profile else None
    objs = ir_by_object(f) if objects else None
    os.unlink(f)
    if not events or not summary:
        return {"error": "no totals in callgrind output"}
    out = dict(zip(events, summary))
    if objs:
        out["objects"] = objs
    if prof:
        out["profile"] = prof
    elif profile:
        out["profile_error"] = "callgrind_annotate listed no function"
    return out


def instructions(v, tmpdir, profile=False, objects=False):
    """callgrind's totals of one run, or, when the kernel runs the program
    through qemu-user (valgrind cannot run it there), qemu's count of the
    instructions executed (no cache figures, no profile, no objects)."""
    qemu = qemucount.emulator(v["exe"])
    if qemu is None:
        return callgrind(v, tmpdir, profile, objects)
    here = os.path.dirname(LAUNCHER)
    return qemucount.count(qemu, [v["exe"]] + v["args"], env=v["env"], cwd=v["cwd"],
                           counter=os.path.join(here, "qbb-qcount"),
                           plugin=os.path.join(here, "qinsn.so"))


def ld_statistics(v):
    """The loader's own LD_DEBUG=statistics report, as text lines."""
    env = dict(v["env"])
    env["LD_DEBUG"] = "statistics"
    try:
        r = subprocess.run([v["exe"]] + v["args"], env=env, cwd=v["cwd"],
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=CHECK_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired) as e:
        return {"error": str(e)}
    lines = []
    for line in r.stderr.decode(errors="replace").splitlines():
        # Both loaders prefix each line with the pid.
        line = re.sub(r"^\s*\d+:\s*", "", line).strip()
        if line:
            lines.append(line)
    parsed = {}
    for line in lines:
        pairs = re.findall(r"(\w+)=([0-9]+)\b", line)
        if pairs:
            # quickbind: "statistics (phase): key=value ..."; the last
            # report of a key (cumulative over dlopen calls) wins.
            for k, val in pairs:
                parsed[k] = int(val)
        elif ":" in line:
            k, val = line.split(":", 1)
            tok = val.split()
            if tok and tok[0].isdigit():
                parsed[k.strip()] = int(tok[0])
    return {"lines": lines[:200], "values": parsed}


def run_workload(wdir, loader, runs, warmup, do_cg, do_stats, log=print,
                 variants=None, profile=(), qemu_counted=None, objects=False, static=False):
    """static: also time the workload's static build, when it has one, in
    the same rounds (res["references"]["static"]);
    variants: the names to run (default: all but EXTRA_VARIANTS);
    profile: the variants whose callgrind run also records where the
    instructions go; qemu_counted: the variants whose instructions are
    counted when that must go through qemu, which takes minutes (default:
    all); objects: record each callgrind run's instructions per object."""
    with open(os.path.join(wdir, "workload.json")) as f:
        meta = json.load(f)
    with tempfile.TemporaryDirectory(prefix="qbb-run.") as scratch:
        return measure_variants(wdir, meta, loader, runs, warmup, do_cg, do_stats, log,
                                variant_cmds(wdir, meta, only=variants, cwd=scratch),
                                profile, qemu_counted, objects,
                                static_cmds(wdir, meta, cwd=scratch) if static else [])


def run_paired(wdir, fdir, loader, runs, warmup, do_cg, do_stats, log=print,
               variants=None, fvariants=None, profile=(), qemu_counted=None,
               fqemu_counted=None, objects=False, static=False):
    """A workload and its floor (fdir), timed in the same interleaved
    rounds: every round runs each variant of both once, in one shuffled
    order, so both follow the same mix of preceding runs (a run after a
    large process finds the caches cold and memory freshly freed, and the
    ratio of the two must not depend on which group a run fell in).
    static: as run_workload's, the static build timed in the same rounds.
    Returns (workload results, floor results)."""
    metas = []
    for d in (wdir, fdir):
        with open(os.path.join(d, "workload.json")) as f:
            metas.append(json.load(f))
    with tempfile.TemporaryDirectory(prefix="qbb-run.") as scratch:
        wres, wlive = checked_variants(wdir, metas[0], loader, log,
                                       variant_cmds(wdir, metas[0], only=variants, cwd=scratch))
        fres, flive = checked_variants(fdir, metas[1], loader, log,
                                       variant_cmds(fdir, metas[1], only=fvariants, cwd=scratch))
        floor_live = [dict(v, name="floor:" + v["name"]) for v in flive]
        refs = checked_refs(wres, static_cmds(wdir, metas[0], cwd=scratch), log) \
            if static else []
        ref_live = [dict(v, name="ref:" + v["name"]) for v in refs]
        log("  %s with %s: measuring %s" % (
            os.path.basename(wdir), os.path.basename(fdir),
            ", ".join(v["name"] for v in wlive + floor_live + ref_live)))
        timed = time_variants(wlive + floor_live + ref_live, runs, warmup)
        for n, r in timed.items():
            if n.startswith("floor:"):
                fres["variants"][n[len("floor:"):]].update(r)
            elif n.startswith("ref:"):
                wres["references"][n[len("ref:"):]].update(r)
            else:
                wres["variants"][n].update(r)
        wres["paired_with"], fres["paired_with"] = os.path.basename(fdir), os.path.basename(wdir)
        finish_variants(wres, wlive, do_cg, do_stats, profile, qemu_counted, objects)
        finish_variants(fres, flive, do_cg, do_stats, (), fqemu_counted, objects)
        finish_refs(wres, refs, do_cg)
    return wres, fres


def measure_variants(wdir, meta, loader, runs, warmup, do_cg, do_stats, log, vs, profile,
                     qemu_counted, objects=False, refs=()):
    res, live = checked_variants(wdir, meta, loader, log, vs)
    refs = checked_refs(res, refs, log) if refs else []
    ref_live = [dict(v, name="ref:" + v["name"]) for v in refs]
    log("  %s: measuring %s" % (os.path.basename(wdir),
                                ", ".join(v["name"] for v in live + ref_live)))
    for n, r in time_variants(live + ref_live, runs, warmup).items():
        if n.startswith("ref:"):
            res["references"][n[len("ref:"):]].update(r)
        else:
            res["variants"][n].update(r)
    finish_variants(res, live, do_cg, do_stats, profile, qemu_counted, objects)
    finish_refs(res, refs, do_cg)
    return res


def finish_refs(res, refs, do_cg):
    """finish_variants for the reference programs (no loader statistics:
    a static program has no loader)."""
    if refs:
        finish_variants({"dir": res["dir"], "variants": res["references"]}, refs,
                        do_cg, False, (), None)


def checked_variants(wdir, meta, loader, log, vs):
    """Each variant's preflight and check run: (results, the variants that
    passed, with musl's output as the reference)."""
    res = {"dir": wdir, "kind": meta["kind"], "params": meta["params"],
           "linkopt": meta.get("linkopt"), "variants": {}}
    ref = None
    outputs = {}
    for v in vs:
        why = preflight(v, meta, loader)
        if why is None:
            out, why = run_check(v)
            outputs[v["name"]] = out
        res["variants"][v["name"]] = {"status": "failed: " + why if why else "ok"}
    # musl's output is the reference; glibc's must agree with it too, since
    # both scopes are in the same load order.
    ref = outputs.get("musl") or outputs.get("glibc-now")
    res["reference_output"] = ref
    live = []
    for v in vs:
        r = res["variants"][v["name"]]
        if r["status"] != "ok":
            continue
        if ref is not None and outputs[v["name"]] != ref:
            r["status"] = "failed: wrong output %r (expected %r)" % (
                outputs[v["name"]].strip()[:60], ref.strip()[:60])
            continue
        live.append(v)
    return res, live


def finish_variants(res, live, do_cg, do_stats, profile, qemu_counted, objects=False):
    """Instructions (callgrind, or qemu's count) and the loader's
    statistics of each timed variant; with objects, each callgrind run's
    instructions per object and "loader_Ir" (loader_part)."""
    for v in live:
        r = res["variants"][v["name"]]
        if r["status"] != "ok":
            continue
        if do_cg and qemu_counted is not None and v["name"] not in qemu_counted \
                and qemucount.emulator(v["exe"]):
            r["callgrind"] = {"skipped": "not counted under qemu"}
        elif do_cg:
            t0 = time.time()
            with tempfile.TemporaryDirectory() as td:
                r["callgrind"] = instructions(v, td, v["name"] in profile, objects)
            r["callgrind"]["seconds"] = round(time.time() - t0, 1)
            lp = loader_part(r["callgrind"].get("objects"), res["dir"])
            if lp is not None:
                r["callgrind"]["loader_Ir"] = lp
        if COUNT_SYSCALLS:
            with tempfile.TemporaryDirectory() as td:
                r["syscalls"] = syscalls(v, td)
        if do_stats and not v["name"].startswith("musl"):
            r["ld_statistics"] = ld_statistics(v)


def machine_info():
    info = {"date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
            "nproc": os.cpu_count()}
    try:
        info["lscpu"] = subprocess.run(["lscpu"], stdout=subprocess.PIPE,
                                       timeout=10).stdout.decode().splitlines()[:12]
    except (OSError, subprocess.TimeoutExpired):
        info["lscpu"] = []
    try:
        info["uname"] = " ".join(os.uname())
        info["glibc"] = os.confstr("CS_GNU_LIBC_VERSION")
    except (OSError, ValueError):
        pass
    return info


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("workloads", nargs="+")
    ap.add_argument("-o", "--out", required=True)
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--callgrind", action="store_true")
    ap.add_argument("--stats", action="store_true")
    ap.add_argument("--loader", default="build/lib/ld-quickbind-x86_64.so.1")
    ap.add_argument("--variants", help="comma-separated subset of: " +
                    ",".join(VARIANT_NAMES))
    ap.add_argument("--launcher", default=LAUNCHER)
    a = ap.parse_args(argv)
    ensure_launcher(a.launcher)
    res = {"machine": machine_info(), "workloads": {}}
    for w in a.workloads:
        res["workloads"][os.path.basename(os.path.normpath(w))] = run_workload(
            w, a.loader, a.runs, a.warmup, a.callgrind, a.stats,
            variants=a.variants.split(",") if a.variants else None, static=True)
    with open(a.out, "w") as f:
        json.dump(res, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
