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
from run import I386_VARIANTS, LABELS, VARIANT_NAMES  # noqa: E402
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


def workload_table(w):
    vs = w["variants"]
    now, musl = vs.get("glibc-now"), vs.get("musl")
    out = ["| variant | wall median ms | spread (min–max) | × glibc now | × musl "
           "| peak RSS KiB | Ir (M) | Ir × glibc now | Ir × musl | D1 misses (k) "
           "| LL misses (k) | relocations (LD_DEBUG) |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for n in VARIANT_NAMES:
        v = vs.get(n)
        if v is None:
            continue
        if not ok(v):
            out.append("| %s | %s |  |  |  |  |  |  |  |  |  |  |"
                       % (LABELS[n], v.get("status", "failed").replace("|", "/")))
            continue
        wm = v.get("wall_ms", {})
        cg = v.get("callgrind", {})
        d1 = ll = None
        if "Dr" in cg or "D1mr" in cg:
            d1 = (cg.get("D1mr", 0) + cg.get("D1mw", 0) + cg.get("I1mr", 0)) / 1e3
            ll = (cg.get("DLmr", 0) + cg.get("DLmw", 0) + cg.get("ILmr", 0)) / 1e3
        irv = ir(v)
        out.append("| %s | %s | %s–%s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            LABELS[n], fmt(wm.get("median")), fmt(wm.get("min")), fmt(wm.get("max")),
            ratio(wall(v), wall(now)), ratio(wall(v), wall(musl)),
            fmt(rss(v), "%d"),
            fmt(irv / 1e6 if irv is not None else None, "%.1f"),
            ratio(irv, ir(now)), ratio(irv, ir(musl)),
            fmt(d1, "%.0f"), fmt(ll, "%.0f"), relocs(v)))
        if "error" in cg:
            out[-1] += " callgrind: " + cg["error"].replace("|", "/")
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
        rows.append(("peak RSS within 5% of musl's loader",
                     "%s ×" % ratio(a, b) if None not in (a, b) else "–",
                     check([a, b], lambda a, b: abs(a / b - 1) <= 0.05)))
    dl = res.get("workloads", {}).get(res.get("main_dlopen", ""))
    if dl:
        vs = dl["variants"]
        for what, f in (("wall time", wall), ("instructions", ir)):
            a, b = f(vs.get("qb-all")), f(vs.get("qb-none"))
            rows.append(("dlopen loop ≥ 40%% faster with tables than without (%s)" % what,
                         "%s ×" % ratio(a, b) if None not in (a, b) else "–",
                         check([a, b], lambda a, b: a <= 0.6 * b)))
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
    for key, w in r.get("workloads", {}).items():
        lines += ["### i386: %s" % key, "",
                  describe(w) + ". linkopt: %s." % w.get("linkopt"), "",
                  workload_table(w), ""]
    rows = targets(r)
    if rows:
        lines += ["### i386: targets (issue 6, evaluated on i386)", "",
                  "| target | measured | verdict |", "|---|---|---|"]
        lines += ["| %s | %s | %s |" % t for t in rows]
        lines.append("")
    for key, w in r.get("workloads", {}).items():
        x = res.get("workloads", {}).get(key)
        if x and same_workload(x, w):
            lines += ["### x86_64 and i386 side by side: %s" % key, "",
                      side_by_side(x, w), ""]
    return lines


def sweep_table(res):
    sw = res.get("sweep", [])
    if not sw:
        return "", []
    cols = [n for n in VARIANT_NAMES
            if any(wall(p["variants"].get(n)) is not None for p in sw)]
    out = ["| libraries | " + " | ".join(LABELS[n] for n in cols) + " |",
           "|---:|" + "---:|" * len(cols)]
    for p in sw:
        out.append("| %d | " % p["libs"] + " | ".join(
            fmt(wall(p["variants"].get(n))) for n in cols) + " |")
    return "\n".join(out), cols


def chart(res, outdir):
    """startup.png from the sweep with gnuplot; returns None or the reason
    the chart is missing."""
    sw = res.get("sweep", [])
    _, cols = sweep_table(res)
    if not sw or not cols:
        return "no sweep measured"
    if not shutil.which("gnuplot"):
        return "gnuplot not installed"
    dat = os.path.join(outdir, "startup.dat")
    with open(dat, "w") as f:
        f.write("# libs " + " ".join(cols) + "\n")
        for p in sw:
            f.write("%d %s\n" % (p["libs"], " ".join(
                fmt(wall(p["variants"].get(n)), "%.4f").replace("–", "?") for n in cols)))
    png = os.path.join(outdir, "startup.png")
    plots = ", ".join('"%s" using 1:%d with linespoints title "%s"' % (
        dat, i + 2, LABELS[n]) for i, n in enumerate(cols))
    for term in ("pngcairo noenhanced size 1000,640 font 'sans,10'",
                 "png noenhanced size 1000,640"):
        script = "\n".join([
            "set terminal %s" % term,
            "set output '%s'" % png,
            "set datafile missing '?'",
            "set title 'Start-up time (exec to exit), OpenOffice-shaped workload'",
            "set xlabel 'shared libraries'",
            "set ylabel 'median wall time (ms)'",
            "set key top left",
            "set grid",
            "plot " + plots, ""])
        if os.path.exists(png):
            os.unlink(png)
        r = subprocess.run(["gnuplot"], input=script.encode(),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode == 0 and os.path.exists(png) and os.path.getsize(png) > 0:
            return None
    return "gnuplot failed: " + r.stderr.decode(errors="replace").strip()[-200:]


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
                 "`valgrind --tool=callgrind --cache-sim=yes`; peak RSS is ru_maxrss "
                 "(GNU time's %%M); ratios are to glibc `LD_BIND_NOW=1` and to musl "
                 "measured in the same run" % (res.get("runs", "?"), res.get("warmup", "?")))
    lines.append("- each quickbind fast path alone = all tables with the other two "
                 "switched off (`LD_NODIRECT=1`, `LD_NOHASHVALS=1`, `LD_NOSYMCACHE=1`)")
    lines.append("")
    for key, w in res.get("workloads", {}).items():
        lines.append("## %s" % key)
        lines.append("")
        lines.append(describe(w) + ". linkopt: %s." % w.get("linkopt"))
        lines.append("")
        lines.append(workload_table(w))
        lines.append("")
    rows = targets(res)
    if rows:
        lines += ["## Targets (issue 6)", "", "| target | measured | verdict |",
                  "|---|---|---|"]
        lines += ["| %s | %s | %s |" % r for r in rows]
        lines.append("")
    lines += i386_section(res)
    lines += image.section(res)
    lines += cxxbench.section(res)
    st, _ = sweep_table(res)
    if st:
        why = chart(res, outdir)
        lines += ["## Library-count sweep (median wall ms)", ""]
        lines.append("![start-up time by library count](startup.png)" if why is None
                     else "(no chart: %s)" % why)
        lines += ["", st, ""]
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
