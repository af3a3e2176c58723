#!/usr/bin/env python3
"""Turn bench results (JSON from bench.py / run.py) into report.md and
startup.png.

  report.py RESULTS.json OUTDIR
"""

import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import I386_VARIANTS, LABELS, STATIC_LABEL, VARIANT_NAMES  # noqa: E402
import gstbench  # noqa: E402
import icubench  # noqa: E402
import abseilbench  # noqa: E402
import realapp  # noqa: E402
import image  # noqa: E402
import cxxbench  # noqa: E402

TARGETS_DOC = "docs/BENCHMARKS.md"


def ok(v):
    return v is not None and v.get("status") == "ok"


def wall(v):
    return v["wall_ms"]["median"] if ok(v) and "wall_ms" in v else None


def ir(v):
    if not ok(v):
        return None
    return v.get("callgrind", {}).get("Ir")


def qemu_counted(v):
    """The emulator whose count gave v's instructions, or None (callgrind)."""
    cg = (v or {}).get("callgrind") or {}
    return cg.get("emulator") if cg.get("method") == "qemu" else None


# How each of qemucount.py's counters counts, for the notes.
QEMU_COUNTERS = {
    "plugin": "the TCG plugin bench/qinsn.c under `%s -plugin`: each translated "
              "block's instruction count added every time the block runs",
    "log": "qemu's block log (`%s -d in_asm,exec,nochain`: the instructions of each "
           "translated block, summed over the blocks executed)",
}


def qemu_note(rows):
    """A line naming the rows (label, variant) whose Ir qemu counted, and
    how, and those left uncounted, or None."""
    q = [(l, v["callgrind"]) for l, v in rows if ok(v) and qemu_counted(v)]
    skipped = [l for l, v in rows if ok(v) and "skipped" in (v.get("callgrind") or {})]
    if not q and not skipped:
        return None
    text = ""
    if q:
        by = {}
        for l, cg in q:
            # results from before the plugin have no "counter": the log's
            key = (cg.get("counter", "log"), os.path.basename(cg["emulator"]))
            by.setdefault(key, []).append(l)
        parts = ["%s: %s" % ("every row" if len(ls) == len(rows) else ", ".join(ls),
                             QEMU_COUNTERS.get(c, c + " (`%s`)") % e)
                 for (c, e), ls in sorted(by.items())]
        text = ("Ir counted under qemu (valgrind cannot run these programs on this "
                "machine), no cache simulation, so no D1/LL columns. %s." % "; ".join(parts))
    if skipped:
        text += ("%sNot counted (`--i386-count-targets`: only the variants the "
                 "issue-15 targets compare): %s." % (" " if text else "", ", ".join(skipped)))
    return text


def rss(v):
    return v.get("rss_kb") if ok(v) else None


def ratio(a, b):
    return "%.2f" % (a / b) if a is not None and b else "–"


def fmt(x, f="%.2f"):
    return f % x if x is not None else "–"


def relocs(v):
    st = (v or {}).get("ld_statistics", {}).get("values", {})
    if "relocations" in st:
        c = st.get("cache_reuses")
        return "%d%s" % (st["relocations"], " (%d cached)" % c if c else "")
    for k in ("final number of relocations", "number of relocations"):
        if k in st:
            n = st[k]
            c = st.get(k.replace("relocations", "relocations from cache"))
            return "%d%s" % (n, " (%d cached)" % c if c else "")
    return "–"


def describe(w):
    p = w["params"]
    if w["kind"] == "office":
        return ("OpenOffice-shaped application: %d libraries × %d exported "
                "functions, %d dependencies each, %d references per library "
                "(half data relocations, half calls), %d weak vague symbols "
                "in every library, seed %d" % (p["libs"], p["funcs"], p["deps"],
                                               p["refs"], p["weak"], p["seed"]))
    if w["kind"] == "dlopen":
        return ("dlopen/dlclose loop: one library with %d exported functions "
                "and %d references into its %d dependencies, opened "
                "(RTLD_NOW) and closed %d times, seed %d"
                % (p["syms"], p["refs"], p["deps"], p["loops"], p["seed"]))
    return ("chain walk: one library of %d functions, %d of them in a single "
            "SysV hash bucket (--hash-style=sysv), all %d referenced by the "
            "program, seed %d" % (p["syms"], p["chain"], p["chain"], p["seed"]))


def symbolic_relocs(w):
    """Symbolic relocations of a workload (all but relative ones), as
    quickbind's LD_DEBUG=statistics counts them; None when not measured."""
    for n in ("qb-none", "qb-all"):
        st = (w["variants"].get(n) or {}).get("ld_statistics", {}).get("values", {})
        if "relocations" in st:
            return st["relocations"] - st.get("relative", 0) - st.get("irelative", 0)
    return None


def per_reloc(x, n):
    return "%.0f" % (x / n) if x is not None and n else "–"


# The floor rows shown under a workload's table: the same libraries with no
# symbolic reference, under these loaders.
FLOOR_ROWS = ["glibc-now", "musl", "qb-none", "qb-all"]


def workload_table(w, floor=None):
    """floor: the floor workload's results (bench.py measure_office), which
    add the per-relocation columns and the floor rows."""
    vs = w["variants"]
    now, musl = vs.get("glibc-now"), vs.get("musl")
    fvs = floor["variants"] if floor else {}
    nsym = symbolic_relocs(w) if floor else None
    extra = floor is not None
    head = ("| variant | wall median ms | spread (min–max) | × glibc now | × musl "
            "| peak RSS KiB | Ir (M) | Ir × glibc now | Ir × musl | D1 misses (k) "
            "| LL misses (k) | relocations (LD_DEBUG) |")
    rule = "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
    if extra:
        head += " wall × floor | Ir / symbolic reloc | Ir above floor / symbolic reloc |"
        rule += "---:|---:|---:|"
    out = [head, rule]

    def row(label, v, fv):
        if not ok(v):
            out.append("| %s | %s |" % (label, v.get("status", "failed").replace("|", "/"))
                       + "  |" * (len(rule.split("|")) - 4))
            return
        wm = v.get("wall_ms", {})
        cg = v.get("callgrind", {})
        d1 = ll = None
        if "Dr" in cg or "D1mr" in cg:
            d1 = (cg.get("D1mr", 0) + cg.get("D1mw", 0) + cg.get("I1mr", 0)) / 1e3
            ll = (cg.get("DLmr", 0) + cg.get("DLmw", 0) + cg.get("ILmr", 0)) / 1e3
        irv = ir(v)
        line = "| %s | %s | %s–%s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label, fmt(wm.get("median")), fmt(wm.get("min")), fmt(wm.get("max")),
            ratio(wall(v), wall(now)), ratio(wall(v), wall(musl)),
            fmt(rss(v), "%d"),
            fmt(irv / 1e6 if irv is not None else None, "%.1f"),
            ratio(irv, ir(now)), ratio(irv, ir(musl)),
            fmt(d1, "%.0f"), fmt(ll, "%.0f"), relocs(v))
        if extra:
            above = irv - ir(fv) if irv is not None and ir(fv) is not None else None
            line += " %s | %s | %s |" % (
                ratio(wall(v), wall(fv)) if fv is not None else "",
                per_reloc(irv, nsym) if fv is not None else "",
                per_reloc(above, nsym) if fv is not None else "")
        out.append(line)
        if "error" in cg:
            out[-1] += " callgrind: " + cg["error"].replace("|", "/")

    shown = []
    for n in VARIANT_NAMES:
        v = vs.get(n)
        if v is not None:
            row(LABELS[n], v, fvs.get(n) if extra else None)
            shown.append((LABELS[n], v))
    for n in FLOOR_ROWS if extra else []:
        if fvs.get(n) is not None:
            row("floor: " + LABELS[n], fvs[n], None)
            shown.append(("floor: " + LABELS[n], fvs[n]))
    st = w.get("references", {}).get("static")
    if st is not None:
        row(STATIC_LABEL, st, None)
        shown.append((STATIC_LABEL, st))
    note = qemu_note(shown)
    if note:
        out += ["", note]
    if extra:
        out += ["", "Floor rows: the same application with no symbolic reference "
                "between libraries (every library references its own code through "
                "hidden aliases: relative relocations, direct calls), built and run "
                "the same way, its variants timed in the same interleaved rounds as "
                "this workload's (one shuffled order for both, so that each follows "
                "the same mix of preceding runs). \"wall × floor\" divides by the floor "
                "under the same "
                "loader and variant; the per-relocation columns divide by the %s "
                "symbolic relocations (all but relative ones) that quickbind's "
                "LD_DEBUG=statistics counts in this workload, and \"above floor\" "
                "subtracts the floor's instructions under the same variant first."
                % (nsym if nsym is not None else "(unmeasured)")]
    if st is not None:
        out += ["", STATIC_NOTE]
    return "\n".join(out)


STATIC_NOTE = ("Static row: the same generated sources, the program's object and every "
               "library's, linked into one static non-PIE executable with `musl-gcc "
               "-static` (no loader, no library file to open or map, no symbolic "
               "relocation), timed in the same interleaved rounds; its output in "
               "`check` mode equals musl's.")

# The system calls the loader makes per library, shown by name; a column
# sums the names of one kind (i386 has mmap2, newer libcs statx).
SYSCALL_COLUMNS = [
    ("openat", ("openat", "open")),
    ("read, pread64", ("read", "pread64")),
    ("fstat", ("fstat", "newfstatat", "statx", "fstat64", "fstatat64")),
    ("mmap", ("mmap", "mmap2")),
    ("mprotect", ("mprotect",)),
    ("munmap", ("munmap",)),
    ("close", ("close",)),
    ("madvise", ("madvise",)),
]


def kernel(v, k, stat="median"):
    return ((v.get("kernel") or {}).get(k) or {}).get(stat) if ok(v) else None


def kernel_table(w, floor=None):
    """The kernel's share of each variant of a workload (and of its floor
    rows and static build): user and system time and page faults of the
    timed runs, system calls of the strace run; "" when nothing of it was
    measured (results from before the launcher reported rusage)."""
    rows = [(LABELS[n], w["variants"][n]) for n in VARIANT_NAMES if n in w["variants"]]
    if floor:
        rows += [("floor: " + LABELS[n], floor["variants"][n]) for n in FLOOR_ROWS
                 if n in floor["variants"]]
    st = w.get("references", {}).get("static")
    if st is not None:
        rows.append((STATIC_LABEL, st))
    if not any(kernel(v, "minflt") is not None or "syscalls" in v for _, v in rows):
        return ""
    libs = w["params"].get("libs") if w["kind"] == "office" else None
    head = ("| variant | wall ms | user ms | sys ms | sys share | minor faults | major faults "
            "| syscalls |" + (" syscalls / library |" if libs else "")
            + "".join(" %s |" % c for c, _ in SYSCALL_COLUMNS))
    rule = "|---|" + "---:|" * (head.count("|") - 2)
    out = [head, rule]
    ms = lambda x: x / 1e3 if x is not None else None  # noqa: E731
    for label, v in rows:
        if not ok(v):
            out.append("| %s | %s |" % (label, v.get("status", "failed").replace("|", "/"))
                       + " |" * (head.count("|") - 3))
            continue
        u, s_ = kernel(v, "user_us", "mean"), kernel(v, "sys_us", "mean")
        share = "%.0f %%" % (100.0 * s_ / (u + s_)) if None not in (u, s_) and u + s_ else "–"
        sc = v.get("syscalls") or {}
        total = sc.get("total")
        calls = sc.get("calls") or {}
        cells = [label, fmt(wall(v)), fmt(ms(kernel(v, "user_us"))), fmt(ms(kernel(v, "sys_us"))),
                 share, fmt(kernel(v, "minflt"), "%.0f"), fmt(kernel(v, "majflt"), "%.0f"),
                 fmt(total, "%d") if total is not None else
                 (sc.get("skipped") or sc.get("error") or "–").replace("|", "/")]
        if libs:
            cells.append(fmt(total / libs if total is not None else None, "%.1f"))
        for _, names in SYSCALL_COLUMNS:
            cells.append(str(sum(calls.get(n, 0) for n in names)) if total is not None else "–")
        out.append("| " + " | ".join(cells) + " |")
    out += ["", "User and system time: medians of the timed runs' `ru_utime` and "
            "`ru_stime` (`wait4`); *sys share*: system time over user plus system time, "
            "from the means (the kernel splits a process's exact CPU time into user and "
            "system by the timer ticks that found it in each mode, so a run of a few ms "
            "is split by a tick or two, and one run's split, like a median of them, is "
            "coarse; the mean over the runs is not). Minor and major page faults: "
            "medians of `ru_minflt`, `ru_majflt`. System calls: one run under "
            "`strace -f -c` with the same arguments, environment and working directory, "
            "the program's `execve` included%s; the named columns are calls of that kind "
            "(openat and open; read and pread64; fstat, newfstatat, statx and the "
            "64-bit-offset forms; mmap and mmap2)." % (
                "; *syscalls / library* divides the total by the workload's %d libraries"
                % libs if libs else "")]
    return "\n".join(out)


def check(cond_vals, fn):
    """'met'/'missed' from fn(values), or 'not measured' when any is None."""
    if any(x is None for x in cond_vals):
        return "not measured"
    return "met" if fn(*cond_vals) else "**missed**"


def targets(res):
    """The issue's targets, evaluated on the default office workload and the
    dlopen case: list of (target, figures, verdict)."""
    rows = []
    office = res.get("workloads", {}).get(res.get("main_office", ""))
    if office:
        vs = office["variants"]
        g = lambda n: vs.get(n)  # noqa: E731
        none, allt = g("qb-none"), g("qb-all")
        now, lazy, musl = g("glibc-now"), g("glibc-lazy"), g("musl")
        for what, f in (("instructions", ir), ("wall time", wall)):
            a, b, c = f(none), f(musl), f(now)
            rows.append(("quickbind without tables no slower than musl and glibc "
                         "LD_BIND_NOW=1 (%s)" % what,
                         "%s × musl, %s × glibc now" % (ratio(a, b), ratio(a, c))
                         if None not in (a, b, c) else "–",
                         check([a, b, c], lambda a, b, c: a <= b and a <= c)))
        for what, f, lim in (("instructions", ir, 0.20), ("wall time", wall, 0.35)):
            a, c = f(allt), f(now)
            rows.append(("quickbind all tables ≤ %.2f × glibc LD_BIND_NOW=1 (%s)" % (lim, what),
                         "%s ×" % ratio(a, c) if None not in (a, c) else "–",
                         check([a, c], lambda a, c: a <= lim * c)))
        for what, f in (("instructions", ir), ("wall time", wall)):
            a, c = f(allt), f(lazy)
            rows.append(("quickbind all tables below glibc lazy (%s)" % what,
                         "%s ×" % ratio(a, c) if None not in (a, c) else "–",
                         check([a, c], lambda a, c: a < c)))
        a, b = rss(allt), rss(musl)
        # less memory than musl is no failure: the target is an upper bound
        rows.append(("peak RSS at most 5% above musl's loader",
                     "%s ×" % ratio(a, b) if None not in (a, b) else "–",
                     check([a, b], lambda a, b: a <= 1.05 * b)))
        # issue 15
        a, c = ir(allt), ir(now)
        rows.append(("issue 15: all tables ≤ 0.08 × glibc LD_BIND_NOW=1 (instructions)",
                     "%s ×" % ratio(a, c) if None not in (a, c) else "–",
                     check([a, c], lambda a, c: a <= 0.08 * c)))
        fl = res.get("floors", {}).get(res.get("main_office", ""))
        fall = fl["variants"].get("qb-all") if fl else None
        a, c = wall(allt), wall(fall)
        rows.append(("issue 15: all tables wall time ≤ 1.6 × the floor workload's",
                     "%s ×" % ratio(a, c) if None not in (a, c) else "–",
                     check([a, c], lambda a, c: a <= 1.6 * c)))
        n = symbolic_relocs(office)
        a, c = ir(allt), ir(fall)
        above = a - c if None not in (a, c) else None
        rows.append(("issue 15: all tables ≤ 60 instructions per symbolic relocation "
                     "above the floor",
                     "%s" % per_reloc(above, n),
                     check([above, n], lambda x, n: x / n <= 60)))
        a, b = ir(none), ir(musl)
        rows.append(("issue 15: no tables ≤ 0.5 × musl (instructions)",
                     "%s ×" % ratio(a, b) if None not in (a, b) else "–",
                     check([a, b], lambda a, b: a <= 0.5 * b)))
        a, b = rss(allt), rss(musl)
        rows.append(("issue 15: peak RSS with tables ≤ 1.05 × musl",
                     "%s ×" % ratio(a, b) if None not in (a, b) else "–",
                     check([a, b], lambda a, b: a <= 1.05 * b)))
    dl = res.get("workloads", {}).get(res.get("main_dlopen", ""))
    if dl:
        vs = dl["variants"]
        for what, f in (("wall time", wall), ("instructions", ir)):
            a, b = f(vs.get("qb-all")), f(vs.get("qb-none"))
            rows.append(("dlopen loop ≥ 40%% faster with tables than without (%s)" % what,
                         "%s ×" % ratio(a, b) if None not in (a, b) else "–",
                         check([a, b], lambda a, b: a <= 0.6 * b)))
        for what, f in (("wall time", wall), ("instructions", ir)):
            a, b = f(vs.get("qb-all")), f(vs.get("qb-none"))
            rows.append(("issue 15: dlopen loop with tables ≥ 2 × faster than without (%s)"
                         % what, "%s × the time" % ratio(a, b) if None not in (a, b) else "–",
                         check([a, b], lambda a, b: 2 * a <= b)))
        for what, f in (("wall time", wall), ("instructions", ir)):
            a, b = f(vs.get("qb-none")), f(vs.get("musl"))
            rows.append(("issue 15: dlopen loop without tables faster than musl (%s)" % what,
                         "%s × musl" % ratio(a, b) if None not in (a, b) else "–",
                         check([a, b], lambda a, b: a < b)))
    return rows


def same_workload(w1, w2):
    """True when two workloads differ only in architecture (and loader)."""
    strip = lambda p: {k: v for k, v in p.items() if k not in ("arch", "loader")}  # noqa: E731
    return w1["kind"] == w2["kind"] and strip(w1["params"]) == strip(w2["params"])


def side_by_side(x, i):
    """x86_64 and i386 figures of one workload, variant by variant."""
    out = ["| variant | wall ms x86_64 | wall ms i386 | i386 ÷ x86_64 "
           "| × glibc now x86_64 | × glibc now i386 | Ir (M) x86_64 | Ir (M) i386 "
           "| Ir × glibc now x86_64 | Ir × glibc now i386 "
           "| peak RSS KiB x86_64 | peak RSS KiB i386 |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    xn, inow = x["variants"].get("glibc-now"), i["variants"].get("glibc-now")
    m = lambda v: ir(v) / 1e6 if ir(v) is not None else None  # noqa: E731
    for n in I386_VARIANTS:
        xv, iv = x["variants"].get(n), i["variants"].get(n)
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            LABELS[n], fmt(wall(xv)), fmt(wall(iv)), ratio(wall(iv), wall(xv)),
            ratio(wall(xv), wall(xn)), ratio(wall(iv), wall(inow)),
            fmt(m(xv), "%.1f"), fmt(m(iv), "%.1f"),
            ratio(ir(xv), ir(xn)), ratio(ir(iv), ir(inow)),
            fmt(rss(xv), "%d"), fmt(rss(iv), "%d")))
    return "\n".join(out)


def i386_section(res):
    """The i386 column: report lines, from "## i386" on."""
    r = res.get("i386")
    if r is None:
        return []
    lines = ["## i386", ""]
    if "skipped" in r:
        return lines + ["Not measured: %s." % r["skipped"], ""]
    lines.append(
        "The same sources built for 32-bit x86: glibc with `i686-linux-gnu-gcc` "
        "(loader `%s`, as `PT_INTERP`, with its libraries by `RUNPATH`), musl with "
        "`i386-linux-musl-gcc` (musl %s's loader `%s`), quickbind's i386 loader "
        "`%s` as `PT_INTERP` of the musl build, and for \"all tables\" the musl "
        "build optimized by linkopt.  Same method as the x86_64 tables (the same "
        "64-bit launcher execs the 32-bit programs); ratios are to glibc i386 "
        "`LD_BIND_NOW=1` and to musl i386, measured in the same run.  Each fast "
        "path alone is measured on x86_64 only." % (
            r.get("glibc_ldso", "?"), r.get("musl_version", "?"),
            r.get("musl_ldso", "?"), r.get("loader", "?")))
    lines.append("")
    every = [v for part in ("workloads", "floors") for w in r.get(part, {}).values()
             for v in w["variants"].values()]
    emus = sorted(set(qemu_counted(v) for v in every if qemu_counted(v)))
    if emus:
        lines += ["Instructions: this kernel runs i386 programs through qemu-user "
                  "(binfmt_misc), and valgrind cannot run them there, so Ir is "
                  "counted under qemu (`%s`), with the same arguments, environment and "
                  "working directory as the timed runs (bench/qemucount.py): by "
                  "default a TCG plugin (bench/qinsn.c) loaded into the dynamic build "
                  "of the same qemu (Debian's qemu-user; the static one binfmt uses "
                  "cannot load plugins) adds each translated block's instruction "
                  "count every time the block runs; where that is unavailable, "
                  "`-d in_asm,exec,nochain` lists each translated block's "
                  "instructions and logs every block executed, and `bench/qcount.c` "
                  "sums the block sizes as the log streams by.  Both agree exactly, "
                  "and match callgrind on x86_64 programs through `qemu-x86_64` "
                  "(tests/bench_smoke.c: identical per-iteration counts). "
                  "There is no cache simulation, so the D1/LL columns are empty; each "
                  "table names the rows counted this way." % "`, `".join(emus), ""]
    for key, w in r.get("workloads", {}).items():
        lines += ["### i386: %s" % key, "",
                  describe(w) + ". linkopt: %s." % w.get("linkopt"), "",
                  workload_table(w, r.get("floors", {}).get(key)), ""]
        kt = kernel_table(w, r.get("floors", {}).get(key))
        if kt:
            lines += ["#### i386: the kernel's share: %s" % key, "", kt, ""]
    rows = targets(r)
    if rows:
        lines += ["### i386: targets (issues 6 and 15, evaluated on i386)", "",
                  "| target | measured | verdict |", "|---|---|---|"]
        lines += ["| %s | %s | %s |" % t for t in rows]
        lines.append("")
    for key, w in r.get("workloads", {}).items():
        x = res.get("workloads", {}).get(key)
        if x and same_workload(x, w):
            lines += ["### x86_64 and i386 side by side: %s" % key, "",
                      side_by_side(x, w), ""]
    return lines


def sweep_series(res):
    """The measured series of the sweep, in order: (key, label, getter),
    getter(point) giving the variant's entry at one size; the floor's
    variants follow the workload's."""
    sw = res.get("sweep", [])
    out = []
    for part, prefix in (("variants", ""), ("floor", "floor: ")):
        for n in VARIANT_NAMES:
            if any(ok(p.get(part, {}).get(n)) for p in sw):
                out.append((part + ":" + n, prefix + LABELS[n],
                            lambda p, part=part, n=n: p.get(part, {}).get(n)))
    return out


def loader_ir(v):
    if not ok(v):
        return None
    return v.get("callgrind", {}).get("loader_Ir")


def cell(x, libs, unit, per_unit, scale, per_scale, f="%.1f", pf="%.0f"):
    """'total (per library)' or '–'."""
    if x is None:
        return "–"
    return ("%s %s (%s %s)" % (f, unit, pf, per_unit)) % (x / scale, x / scale / libs * per_scale)


def sweep_tables(res):
    """Markdown of the sweep: instructions, wall time, the floor's loader
    part and linkopt's time at each size, each with its per-library
    figure; "" when there is no sweep."""
    sw = res.get("sweep", [])
    series = sweep_series(res)
    if not sw or not series:
        return ""
    head = "| libraries | " + " | ".join(l for _, l, _ in series) + " |"
    rule = "|---:|" + "---:|" * len(series)
    out = []
    if any(ir(g(p)) is not None for p in sw for _, _, g in series):
        out += ["Instructions (callgrind, whole process: M, and k per library):", "", head, rule]
        for p in sw:
            out.append("| %d | " % p["libs"] + " | ".join(
                cell(ir(g(p)), p["libs"], "M", "k", 1e6, 1e3) for _, _, g in series) + " |")
        fl = [(k, l, g) for k, l, g in series if k.startswith("floor:")]
        if any(loader_ir(g(p)) is not None for p in sw for _, _, g in fl):
            out += ["", "The floor's loader part (instructions outside the workload's own "
                    "program and libraries: the loader, which is the libc too, and the vDSO; "
                    "M, and k per library):", "",
                    "| libraries | " + " | ".join(l for _, l, _ in fl) + " |",
                    "|---:|" + "---:|" * len(fl)]
            for p in sw:
                out.append("| %d | " % p["libs"] + " | ".join(
                    cell(loader_ir(g(p)), p["libs"], "M", "k", 1e6, 1e3) for _, _, g in fl) + " |")
        out.append("")
    out += ["Wall time (median ms of the interleaved runs, and ms per library):", "", head, rule]
    for p in sw:
        out.append("| %d | " % p["libs"] + " | ".join(
            "%.2f (%.3f)" % (wall(g(p)), wall(g(p)) / p["libs"]) if wall(g(p)) is not None else
            (g(p) or {}).get("status", "–").replace("|", "/")[:60] for _, _, g in series) + " |")
    out.append("")
    if any(p.get("linkopt") for p in sw):
        out += ["linkopt on the workload (every library and the program, in one run; "
                "CPU = user + system seconds of the linkopt process):", "",
                "| libraries | files | CPU s | CPU s per library | wall s | status |",
                "|---:|---:|---:|---:|---:|---|"]
        for p in sw:
            lo = p.get("linkopt") or {}
            cpu = lo.get("cpu_s")
            out.append("| %d | %s | %s | %s | %s | %s |" % (
                p["libs"], lo.get("files", "–"), fmt(cpu, "%.2f"),
                fmt(cpu / p["libs"] if cpu is not None else None, "%.4f"),
                fmt(lo.get("wall_s"), "%.2f"),
                (lo.get("status") or "–").replace("|", "/")))
        out.append("")
    return "\n".join(out)


def sweep_targets(res):
    """Issue 28's goals on the sweep: the cost per library at the largest
    size against the smallest. Rows (target, measured, verdict)."""
    sw = [p for p in res.get("sweep", []) if p.get("libs")]
    if len(sw) < 2:
        return []
    lo, hi = min(sw, key=lambda p: p["libs"]), max(sw, key=lambda p: p["libs"])
    rows = []

    def growth(get, what, lim):
        a, b = get(lo), get(hi)
        r = (b / hi["libs"]) / (a / lo["libs"]) if None not in (a, b) and a else None
        rows.append(("%s: per library at %d libraries within %d %% of %d" % (
            what, hi["libs"], round(100 * (lim - 1)), lo["libs"]),
            "%.2f ×" % r if r is not None else "–",
            check([r], lambda r: r <= lim)))

    growth(lambda p: ir(p["variants"].get("qb-all")), "all tables, instructions", 1.15)
    growth(lambda p: ir(p["variants"].get("qb-none")), "no tables, instructions", 1.25)
    for n in ("qb-none", "qb-all"):
        growth(lambda p, n=n: loader_ir((p.get("floor") or {}).get(n)),
               "floor, %s: loader part" % LABELS[n], 1.25)
    cpu = (hi.get("linkopt") or {}).get("cpu_s")
    per = cpu / hi["libs"] if cpu is not None else None
    rows.append(("linkopt at %d libraries under 0.05 s of CPU per library" % hi["libs"],
                 "%.4f s" % per if per is not None else "–",
                 check([per], lambda x: x < 0.05)))
    return rows


def describe_sweep(res):
    p = res.get("sweep_params") or {}
    if not p:
        return "default parameters"
    return ("%d exported functions, %d dependencies and %d references per library, "
            "%d weak vague symbols, seed %d" % (p["funcs"], p["deps"], p["refs"], p["weak"],
                                               p["seed"]))


def run_gnuplot(png, lines):
    """Runs gnuplot with lines (after the terminal and output); returns None
    or the reason there is no PNG."""
    for term in ("pngcairo noenhanced size 1000,640 font 'sans,10'",
                 "png noenhanced size 1000,640"):
        script = "\n".join(["set terminal %s" % term, "set output '%s'" % png]
                           + lines + [""])
        if os.path.exists(png):
            os.unlink(png)
        r = subprocess.run(["gnuplot"], input=script.encode(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode == 0 and os.path.exists(png) and os.path.getsize(png) > 0:
            return None
    return "gnuplot failed: " + r.stderr.decode(errors="replace").strip()[-200:]



def apps_chart(res, outdir):
    """apps.png: the real applications (GStreamer, ICU, abseil), each program's
    instructions under every variant as a multiple of glibc's lazy binding
    of Debian's build, whole process and the binding work. Returns None or
    the reason there is no chart."""
    progs = []
    for key, mod in (("gst", gstbench), ("icu", icubench), ("abseil", abseilbench),
                     ("icu-i386", icubench), ("abseil-i386", abseilbench)):
        g = res.get(key) or {}
        for prog in mod.PROGRAMS:
            p = g.get("programs", {}).get(prog[0])
            if p and p.get("glibc-lazy", {}).get("ir"):
                progs.append(("%s %s" % (key, prog[0]), p))
    if not progs:
        return "no real application was measured"
    names = [n for n, _ in realapp.VARIANTS]
    labels = [lab for _, lab in realapp.VARIANTS]

    def block(tag, field):
        rows = ["$%s << EOD" % tag]
        for label, p in progs:
            base = p["glibc-lazy"].get(field)
            vals = []
            for n in names:
                x = p.get(n, {}).get(field)
                vals.append("%.4f" % (x / base) if x is not None and base else "NaN")
            rows.append('"%s" %s' % (label, " ".join(vals)))
        return rows + ["EOD"]
    lines = block("ir", "ir") + block("bind", "binding_ir") + [
        "set multiplot layout 2,1 title 'Real applications: instructions, multiple of glibc lazy (Debian build)'",
        "set style data histograms", "set style histogram clustered gap 1",
        "set style fill solid 0.8 border -1", "set key outside right top vertical",
        "set xtics rotate by -20 scale 0", "set grid ytics", "set yrange [0:*]",
        "set offsets 0, 0, graph 0.08, 0"]
    for tag, title in (("ir", "whole process"), ("bind", "binding work (relocation functions)")):
        if tag == "bind":
            lines.append("unset key")
        lines.append("set ylabel '%s'" % title)
        lines.append("plot " + ", ".join(
            "$%s using %d%s title \"%s\"" % (tag, k + 2, ":xtic(1)" if k == 0 else "",
                                               labels[k].replace('"', "'"))
            for k in range(len(names))))
    lines.append("unset multiplot")
    return run_gnuplot(os.path.join(outdir, "apps.png"), lines)

def bar_chart(res, outdir):
    """startup.png without a sweep (make demo): the main office workload's
    median wall time per loader, min–max as error bars, and the floor
    workload's when it was measured."""
    w = res.get("workloads", {}).get(res.get("main_office", ""))
    if not w:
        return "no office workload measured"
    fl = res.get("floors", {}).get(res.get("main_office", ""))
    bars = [(LABELS[n], w["variants"].get(n)) for n in VARIANT_NAMES]
    if fl:
        bars += [("floor: " + LABELS[n], fl["variants"].get(n)) for n in FLOOR_ROWS]
    bars = [(l, v) for l, v in bars if wall(v) is not None]
    if not bars:
        return "no variant measured"
    dat = os.path.join(outdir, "startup.dat")
    with open(dat, "w") as f:
        f.write("# loader median min max\n")
        for i, (l, v) in enumerate(bars):
            wm = v["wall_ms"]
            f.write('%d "%s" %.4f %.4f %.4f\n' % (i, l.replace('"', "'"), wm["median"],
                                                 wm["min"], wm["max"]))
    return run_gnuplot(os.path.join(outdir, "startup.png"), [
        "set title 'Start-up time (exec to exit): %s'" % describe(w).split(":")[0],
        "set ylabel 'wall time (ms): median, min-max'",
        "set style fill solid 0.6",
        "set boxwidth 0.7",
        "set xtics rotate by -30",
        "set bmargin 9",
        "set yrange [0:*]",
        "set grid ytics",
        "unset key",
        "plot '%s' using 1:3:xticlabels(2) with boxes, "
        "'' using 1:3:4:5 with yerrorbars lc rgb 'black' pt 0" % dat])


def chart(res, outdir):
    """startup.png with gnuplot: the library-count sweep (wall time, and
    instructions per library when counted), or without one a bar chart of
    the main workload; returns None or the reason the chart is missing."""
    if not shutil.which("gnuplot"):
        return "gnuplot not installed"
    sw = res.get("sweep", [])
    series = sweep_series(res)
    if not sw or not series:
        return bar_chart(res, outdir)
    dat = os.path.join(outdir, "startup.dat")
    with open(dat, "w") as f:
        f.write("# libs, then per series: wall ms, k instructions per library\n")
        for p in sw:
            vals = []
            for _, _, g in series:
                w, i = wall(g(p)), ir(g(p))
                vals += [fmt(w, "%.4f").replace("–", "?"),
                         fmt(i / p["libs"] / 1e3 if i is not None else None, "%.3f").replace("–", "?")]
            f.write("%d %s\n" % (p["libs"], " ".join(vals)))
    png = os.path.join(outdir, "startup.png")

    def plots(col):
        return ", ".join('"%s" using 1:%d with linespoints title "%s"' % (
            dat, 2 + 2 * i + col, l) for i, (_, l, _) in enumerate(series))
    counted = any(ir(g(p)) is not None for p in sw for _, _, g in series)
    lines = ["set datafile missing '?'", "set key top left", "set grid",
             "set xlabel 'shared libraries'", "set logscale x 2"]
    if counted:
        # log scales: musl's loader is quadratic, the others are not
        lines += ["set multiplot layout 1,2 title 'OpenOffice-shaped workload by library count'",
                  "set key top left Left reverse font ',8'",
                  "set title 'start-up time (exec to exit)'", "set ylabel 'median wall time (ms)'",
                  "set logscale y", "plot " + plots(0), "unset key",
                  "set title 'instructions per library (callgrind; same lines)'",
                  "set ylabel 'thousand instructions per library'",
                  "plot " + plots(1), "unset multiplot"]
    else:
        lines += ["set title 'Start-up time (exec to exit), OpenOffice-shaped workload'",
                  "set ylabel 'median wall time (ms)'", "plot " + plots(0)]
    return run_gnuplot(png, lines)


MIB = float(1 << 20)


def mib(x):
    return "%.1f" % (x / MIB) if x is not None else "–"


def cold_table(w):
    """One cold workload: a row per variant, ratios to musl and glibc lazy
    of the same table."""
    vs = w["variants"]
    musl, lazy = vs.get("musl"), vs.get("glibc-lazy")
    out = ["| variant | cold wall median ms | min–max | × musl | × glibc lazy "
           "| MiB resident after | resident × musl | MiB brought in | closure: files, MiB |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for n in w["order"]:
        v = vs[n]
        if not ok(v):
            out.append("| %s | %s | | | | | | | |" % (
                v["label"], v.get("status", "failed").replace("|", "/")[:200]))
            continue
        wm = v["wall_ms"]
        r = v.get("resident_bytes")
        out.append("| %s | %s | %s–%s | %s | %s | %s | %s | %s | %d, %s |" % (
            v["label"], fmt(wm["median"], "%.1f"), fmt(wm["min"], "%.1f"),
            fmt(wm["max"], "%.1f"), ratio(wall(v), wall(musl)), ratio(wall(v), wall(lazy)),
            mib(r), ratio(r, musl.get("resident_bytes") if ok(musl) else None),
            mib(v.get("brought_bytes")), v["closure_files"], mib(v["closure_bytes"])))
    return "\n".join(out)


def cold_chart(res, outdir):
    """cold.png: the main cold workload's median wall time (min–max) and
    the MiB of its closure resident after the run, per variant; None or
    the reason there is no chart."""
    if not shutil.which("gnuplot"):
        return "gnuplot not installed"
    c = res.get("cold") or {}
    w = next((x for x in c.get("workloads", []) if x.get("key") == c.get("main")), None)
    if not w or "variants" not in w:
        return "no cold workload measured"
    bars = [w["variants"][n] for n in w["order"] if ok(w["variants"][n])]
    if not bars:
        return "no variant measured"
    dat = os.path.join(outdir, "cold.dat")
    with open(dat, "w") as f:
        f.write("# variant median min max resident_MiB brought_MiB\n")
        for i, v in enumerate(bars):
            wm = v["wall_ms"]
            f.write('%d "%s" %.4f %.4f %.4f %.4f %.4f\n' % (
                i, v["label"].replace('"', "'"), wm["median"], wm["min"], wm["max"],
                v["resident_bytes"] / MIB, v["brought_bytes"] / MIB))
    return run_gnuplot(os.path.join(outdir, "cold.png"), [
        "set multiplot layout 1,2 title 'Cold start-up (%s, %s): %s'" % (
            "page cache dropped" if c.get("method") == "drop" else "closure files evicted",
            "median of %s runs" % c.get("runs"), w["key"]),
        "set style fill solid 0.6", "set boxwidth 0.7", "set xtics rotate by -40 font ',8'",
        "set bmargin 14", "set yrange [0:*]", "set grid ytics", "unset key",
        "set title 'wall time, exec to exit'", "set ylabel 'ms: median, min-max'",
        "plot '%s' using 1:3:xticlabels(2) with boxes, "
        "'' using 1:3:4:5 with yerrorbars lc rgb 'black' pt 0" % dat,
        "set title 'page cache: the closure after the run'", "set ylabel 'MiB'",
        # headroom above the tallest bar for the key
        "set key top left font ',8'", "set offsets 0, 0, graph 0.15, 0",
        "plot '%s' using 1:6:xticlabels(2) with boxes title 'resident after', "
        "'' using 1:7 with points pt 7 lc rgb 'black' title 'brought in by the run'" % dat,
        "unset multiplot"])


def cold_section(res, outdir):
    """Markdown lines of the cold rows; with outdir, cold.png too."""
    c = res.get("cold")
    if not c:
        return []
    lines = ["## Cold start-up", ""]
    if "skipped" in c:
        return lines + ["Not measured: %s." % c["skipped"], ""]
    import cold
    note = " (%s)" % c["method_note"] if c.get("method_note") else ""
    ra = c.get("read_ahead_kb")
    lines += ["Each run starts cold: %s%s. Median of %s cold runs per variant (min–max), "
              "in interleaved rounds of a shuffled order; wall time exec to exit through "
              "the static launcher. *Resident after*: bytes of the variant's closure in the "
              "page cache after the run (`mincore`), median over the runs; *brought in*: "
              "after minus just before the run (eviction leaves the pages other processes "
              "map, glibc's libc.so.6 among them). Closure: the program, its loader and "
              "every library the loader's `--list` names with the run's environment (for "
              "GStreamer also the plugins, the scanner and the registry). Rows with "
              "`LD_NOPREFETCH=1`: quickbind with its early reads turned off (the same "
              "loader work where it has none). Rows with *recorded pages*: the optimized "
              "program with a closure record that asks for the pages one warm run of it "
              "read (`LD_RECORD_PAGES`, `linkopt --pages`) instead of the libraries' "
              "segments.%s" % (
                  cold.METHOD_TEXT.get(c["method"], c["method"]), note, c.get("runs", "?"),
                  " Readahead of the device holding the workload: %d KiB." % ra
                  if ra is not None else ""), ""]
    if outdir:
        why = cold_chart(res, outdir)
        res["cold_chart"] = None if why else os.path.join(outdir, "cold.png")
        lines += ["![cold start-up by loader](cold.png)" if why is None
                  else "(no chart: %s)" % why, ""]
    for w in c.get("workloads", []):
        lines += ["### Cold: %s" % w["key"], ""]
        if "skipped" in w:
            lines += ["Not measured: %s." % w["skipped"], ""]
            continue
        if w.get("title"):
            lines += [w["title"] + ".", ""]
        lines += [cold_table(w), ""]
        ld = w.get("loaders") or {}
        if ld:
            lines += ["Loader files: " + "; ".join(
                "`%s` %s MiB%s" % (p, mib(size), ", %s MiB of it in sections no segment "
                                   "loads (debugging information, symbol table: a stripped "
                                   "copy, as `make install` puts in, has none), which "
                                   "readahead brings in too" % mib(extra)
                                   if extra >= 64 * 1024 else "")
                for p, (size, extra) in ld.items()) + ".", ""]
    return lines


def profile_section(res):
    """Where the instructions go: the top functions of each profiled run."""
    out = []
    for key, w in res.get("workloads", {}).items():
        for n in VARIANT_NAMES:
            cg = (w["variants"].get(n) or {}).get("callgrind") or {}
            prof, total = cg.get("profile"), cg.get("Ir")
            if cg.get("profile_error"):
                out += ["### %s / %s: no profile (%s)" % (key, LABELS[n], cg["profile_error"]), ""]
            if not prof or not total:
                continue
            out += ["### %s / %s: %.1f M instructions" % (key, LABELS[n], total / 1e6), "",
                    "| Ir (M) | share | function | object |", "|---:|---:|---|---|"]
            for ir_, where, obj in prof:
                out.append("| %.2f | %.1f%% | `%s` | %s |" % (
                    ir_ / 1e6, 100.0 * ir_ / total, where, obj))
            shown = sum(p[0] for p in prof)
            out += ["| %.2f | %.1f%% | (all other functions) | |" % (
                (total - shown) / 1e6, 100.0 * (total - shown) / total), ""]
    if out:
        out = ["## Profile (callgrind, exclusive instructions per function)", ""] + out
    return out


def render(res, outdir):
    m = res.get("machine", {})
    lines = ["# quickbind start-up benchmark", ""]
    lines.append("- date: %s" % m.get("date", "?"))
    lines.append("- command: `%s`" % res.get("command", "?"))
    lines.append("- machine: %s CPUs; %s" % (m.get("nproc", "?"), "; ".join(
        " ".join(l.split()) for l in m.get("lscpu", [])
        if l.startswith(("Model name", "Architecture")))))
    if "uname" in m:
        lines.append("- kernel: %s; glibc: %s; musl: %s" % (
            m["uname"], m.get("glibc", "?"), res.get("musl_version", "?")))
    lines.append("- timing: median of %s interleaved runs per variant after %s warm-up "
                 "round(s); Ir and cache misses from one run under "
                 "`valgrind --tool=callgrind --cache-sim=yes` (for programs the kernel "
                 "runs through qemu-user, which valgrind cannot run, Ir is qemu's count "
                 "of the instructions of the blocks executed, and the tables say so); "
                 "every run has a scratch working directory; peak RSS is ru_maxrss "
                 "(GNU time's %%M); ratios are to glibc `LD_BIND_NOW=1` and to musl "
                 "measured in the same run" % (res.get("runs", "?"), res.get("warmup", "?")))
    lines.append("- each quickbind fast path alone = all tables with the other two and the "
                 "program's launch record switched off (`LD_NODIRECT=1`, `LD_NOHASHVALS=1`, "
                 "`LD_NOSYMCACHE=1`, `LD_NORECORD=1`)")
    lines.append("")
    for key, w in res.get("workloads", {}).items():
        lines.append("## %s" % key)
        lines.append("")
        lines.append(describe(w) + ". linkopt: %s." % w.get("linkopt"))
        lines.append("")
        lines.append(workload_table(w, res.get("floors", {}).get(key)))
        lines.append("")
        kt = kernel_table(w, res.get("floors", {}).get(key))
        if kt:
            lines += ["### The kernel's share: %s" % key, "", kt, ""]
    rows = targets(res)
    if rows:
        lines += ["## Targets (issues 6 and 15)", "", "| target | measured | verdict |",
                  "|---|---|---|"]
        lines += ["| %s | %s | %s |" % r for r in rows]
        lines.append("")
    lines += i386_section(res)
    lines += image.section(res)
    lines += gstbench.section(res)
    lines += icubench.section(res)
    lines += icubench.section(res, "icu-i386")
    lines += abseilbench.section(res)
    lines += abseilbench.section(res, "abseil-i386")
    if res.get("gst") or res.get("icu") or res.get("abseil"):
        why = apps_chart(res, outdir)
        res["apps_chart"] = None if why else os.path.join(outdir, "apps.png")
        lines += ["### Real applications chart", "",
                  "![instructions by loader, real applications](apps.png)" if why is None
                  else "(no chart: %s)" % why, ""]
    lines += cxxbench.section(res)
    st = sweep_tables(res)
    why = chart(res, outdir)
    res["chart"] = None if why else os.path.join(outdir, "startup.png")
    if st:
        sw = res["sweep"]
        lines += ["## Library-count sweep", ""]
        lines.append("The office workload (%s) at %s libraries; its floor (the same "
                     "libraries without symbolic references) timed in the same interleaved "
                     "rounds. \"per library\" divides by the library count." % (
                         describe_sweep(res), ", ".join(str(p["libs"]) for p in sw)))
        lines.append("")
        lines.append("![start-up time by library count](startup.png)" if why is None
                     else "(no chart: %s)" % why)
        lines += ["", st]
        rows = sweep_targets(res)
        if rows:
            lines += ["### Targets (issue 28)", "", "| target | measured | verdict |",
                      "|---|---|---|"] + ["| %s | %s | %s |" % r for r in rows] + [""]
    elif why is None:
        lines += ["## Start-up chart", "", "![start-up time by loader](startup.png)", ""]
    elif res.get("workloads") or res.get("sweep") or not res.get("cold"):
        lines += ["## Start-up chart", "", "(no chart: %s)" % why, ""]
    lines += cold_section(res, outdir)
    stats = []
    every = list(res.get("workloads", {}).items()) + [
        ("i386 " + k, w) for k, w in res.get("i386", {}).get("workloads", {}).items()]
    for key, w in every:
        for n in VARIANT_NAMES:
            s = w["variants"].get(n, {}).get("ld_statistics")
            if s and s.get("lines"):
                ls = s["lines"]
                if len(ls) > 12:
                    ls = ls[:6] + ["[... %d lines ...]" % (len(ls) - 10)] + ls[-4:]
                stats.append("%s / %s:\n```\n%s\n```" % (key, LABELS[n], "\n".join(ls)))
    if stats:
        lines += ["## Loader statistics (LD_DEBUG=statistics)", ""] + stats + [""]
    lines += profile_section(res)
    text = "\n".join(lines)
    with open(os.path.join(outdir, "report.md"), "w") as f:
        f.write(text)
    return text


def main(argv):
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        res = json.load(f)
    render(res, argv[1])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
