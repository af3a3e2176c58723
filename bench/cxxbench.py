#!/usr/bin/env python3
"""The C++ row of the benchmark: the C++ office workload of bench/cxxgen.py
under glibc's loader (lazy and LD_BIND_NOW=1), musl's loader and quickbind
without and with tables, reported beside the C office workload, with the
relocation mix of both workloads counted from the files (readelf -rW).

bench.py calls add_args() and defaults() while parsing its options,
measure() after the C workloads and report.py calls section().
"""

import collections
import os
import subprocess

import cxxgen
import report
import run

VARIANTS = ["glibc-lazy", "glibc-now", "musl", "qb-none", "qb-all"]

# readelf's relocation type names -> the categories of the report.
CATEGORIES = [
    ("symbolic", ("R_X86_64_64", "R_386_32")),
    ("relative", ("R_X86_64_RELATIVE", "R_386_RELATIVE")),
    ("GLOB_DAT", ("R_X86_64_GLOB_DAT", "R_386_GLOB_DAT")),
    ("JUMP_SLOT", ("R_X86_64_JUMP_SLOT", "R_386_JUMP_SLOT")),
]
CAT_OF = {t: c for c, ts in CATEGORIES for t in ts}
CAT_NAMES = [c for c, _ in CATEGORIES] + ["other"]
VAGUE_PREFIXES = ("_ZTV", "_ZTI", "_ZTS")


def add_args(ap):
    ap.add_argument("--no-cxx", action="store_true", help="skip the C++ office workload")
    ap.add_argument("--cxx-libs", type=int, help="libraries of the C++ workload")
    ap.add_argument("--cxx-classes", type=int, help="classes per library of the C++ workload")


def defaults(a):
    """Per mode, like bench.py's own defaults; explicit options win."""
    if a.demo:
        a.no_cxx = True
    if a.quick:
        libs, classes = 15, 12
    else:
        libs, classes = 60, 30
    if a.cxx_libs is None:
        a.cxx_libs = libs
    if a.cxx_classes is None:
        a.cxx_classes = classes


def reloc_mix(d, files):
    """Relocation counts of the given files of directory d, by category;
    "vague" counts the non-relative ones against _ZTV/_ZTI/_ZTS names
    (the names quickbind's direct binding leaves to the standard lookup)."""
    mix = collections.Counter()
    for f in files:
        p = os.path.join(d, f)
        if not os.path.exists(p):
            continue
        out = subprocess.run(["readelf", "-rW", p], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL).stdout.decode(errors="replace")
        for line in out.splitlines():
            tok = line.split()
            if len(tok) < 3 or not tok[2].startswith("R_"):
                continue
            cat = CAT_OF.get(tok[2], "other")
            mix[cat] += 1
            if cat == "relative" or len(tok) < 5:
                continue
            if tok[4].startswith(VAGUE_PREFIXES):
                mix["vague"] += 1
            if int(tok[3], 16) != 0:
                mix["own"] += 1
    mix["total"] = sum(mix[c] for c in CAT_NAMES)
    return dict(mix)


def workload_files(wdir):
    """(the workload's own files: libraries and program, the C++ runtime
    copies next to them)."""
    import json
    with open(os.path.join(wdir, "workload.json")) as f:
        meta = json.load(f)
    own = [x for x in meta["opt_files"] if x.startswith("lib") and x not in cxxgen.RUNTIME]
    own.append("app")
    rt = [x for x in meta["opt_files"] if x in cxxgen.RUNTIME]
    return own, rt, meta


def mixes(wdir):
    own, rt, meta = workload_files(wdir)
    out = {"glibc": reloc_mix(os.path.join(wdir, "glibc"), own),
           "musl": reloc_mix(os.path.join(wdir, "musl"), own)}
    if rt:
        out["musl C++ runtime"] = reloc_mix(os.path.join(wdir, "musl"), rt)
    return out, meta


def build(a, log):
    """The C++ workload generated and built (reused when unchanged):
    (its directory, workload.json's contents), or (None, why not)."""
    why = cxxgen.missing()
    if why:
        log("C++ workload skipped: " + why)
        return None, why
    sub = "cxx-office-%d-%d" % (a.cxx_libs, a.cxx_classes)
    wdir = os.path.join(a.out, "work", sub)
    argv = [wdir, "--libs", str(a.cxx_libs), "--classes", str(a.cxx_classes),
            "--seed", str(a.seed), "--jobs", str(a.jobs), "--loader", a.loader,
            "--linkopt", a.linkopt]
    import time
    t0 = time.time()
    try:
        meta = cxxgen.generate(cxxgen.parse_args(argv))
    except cxxgen.dag.BuildError as e:
        log("C++ workload failed to build: %s" % str(e)[:300])
        return None, "build failed: %s" % str(e).splitlines()[0][:200]
    log("built %s in %.0f s (linkopt: %s)" % (sub, time.time() - t0, meta["linkopt"]))
    return wdir, meta


def measure(a, log, c_dir):
    """c_dir: the C office workload's directory (for its relocation mix)."""
    if a.no_cxx:
        return {"skipped": "--no-cxx" if not a.demo else "not part of the demo"}
    wdir, meta = build(a, log)
    if wdir is None:
        return {"skipped": meta}
    sub = os.path.basename(wdir)
    w = run.run_workload(wdir, os.path.abspath(a.loader), a.runs, a.warmup,
                         not a.no_callgrind, True, log=log, variants=VARIANTS)
    w["linkopt_symbols"] = meta.get("linkopt_symbols")
    res = {"key": sub, "workload": w, "mix": {}}
    res["mix"]["C++"], _ = mixes(wdir)
    if c_dir and os.path.exists(os.path.join(c_dir, "workload.json")):
        res["mix"]["C"], _ = mixes(c_dir)
    return res


def describe(w):
    p = w["params"]
    return ("C++ office application: libbase.so (root class with %d virtual methods, "
            "exception base, registry, %d vague `Holder<Tag<N>>` template instances) and "
            "%d libraries × %d classes, each derived from a class of one of its %d "
            "dependencies, overriding 3–8 virtual methods, %d template instances per "
            "library, a static constructor and an exception type each; the timed run "
            "creates %d objects per library; seed %d"
            % (len(cxxgen.VIRTUALS), p["tags"], p["libs"], p["classes"], p["deps"],
               p["tags_per_lib"], p["quick_objects"], p["seed"]))


def beside(c, x):
    """The C and C++ office workloads, variant by variant."""
    out = ["| variant | wall ms C | wall ms C++ | × glibc now C | × glibc now C++ "
           "| × musl C | × musl C++ | Ir (M) C | Ir (M) C++ | Ir × glibc now C "
           "| Ir × glibc now C++ | Ir × musl C | Ir × musl C++ |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    m = lambda v: report.ir(v) / 1e6 if report.ir(v) is not None else None  # noqa: E731
    cv, xv = c["variants"], x["variants"]
    for n in VARIANTS:
        a, b = cv.get(n), xv.get(n)
        out.append("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            run.LABELS[n], report.fmt(report.wall(a)), report.fmt(report.wall(b)),
            report.ratio(report.wall(a), report.wall(cv.get("glibc-now"))),
            report.ratio(report.wall(b), report.wall(xv.get("glibc-now"))),
            report.ratio(report.wall(a), report.wall(cv.get("musl"))),
            report.ratio(report.wall(b), report.wall(xv.get("musl"))),
            report.fmt(m(a), "%.1f"), report.fmt(m(b), "%.1f"),
            report.ratio(report.ir(a), report.ir(cv.get("glibc-now"))),
            report.ratio(report.ir(b), report.ir(xv.get("glibc-now"))),
            report.ratio(report.ir(a), report.ir(cv.get("musl"))),
            report.ratio(report.ir(b), report.ir(xv.get("musl")))))
    return "\n".join(out)


def pct(n, d):
    return "%.1f%%" % (100.0 * n / d) if d else "–"


def mix_table(mix):
    out = ["| workload | build | files | total | symbolic | relative | GLOB_DAT "
           "| JUMP_SLOT | other | symbolic share | against _ZTV/_ZTI/_ZTS | against own definitions |",
           "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for wl in ("C", "C++"):
        for build, mx in mix.get(wl, {}).items():
            files = "C++ runtime copies" if "runtime" in build else "libraries + program"
            t = mx.get("total", 0)
            nonrel = t - mx.get("relative", 0)
            out.append("| %s | %s | %s | %d | %d | %d | %d | %d | %d | %s | %d (%s) | %d (%s) |" % (
                wl, build.replace(" C++ runtime", ""), files, t, mx.get("symbolic", 0),
                mx.get("relative", 0), mx.get("GLOB_DAT", 0), mx.get("JUMP_SLOT", 0),
                mx.get("other", 0), pct(mx.get("symbolic", 0), t), mx.get("vague", 0),
                pct(mx.get("vague", 0), nonrel), mx.get("own", 0), pct(mx.get("own", 0), nonrel)))
    return "\n".join(out)


def loader_line(w, n):
    st = w["variants"].get(n, {}).get("ld_statistics", {}).get("values", {})
    keys = ("relocations", "lookups", "direct_hits", "definition_hints", "names_hashed",
            "strcmps", "cache_reuses")
    if not any(k in st for k in keys):
        return None
    return ", ".join("%s %d" % (k, st[k]) for k in keys if k in st)


def section(res):
    """Markdown lines for the report."""
    r = res.get("cxx")
    if not r:
        return []
    lines = ["## C++ office workload", ""]
    if "skipped" in r:
        return lines + ["Not measured: %s." % r["skipped"], ""]
    w = r["workload"]
    lines += [describe(w) + ". glibc build: Debian's g++ (libstdc++); musl build: "
              "scripts/cxx/musl-c++ (zig's clang, shared libc++/libc++abi/libunwind copied "
              "next to the program); all tables: every library, the C++ runtime included, "
              "optimized by linkopt. linkopt: %s." % w.get("linkopt"), "",
              report.workload_table(w), ""]
    c = res.get("workloads", {}).get(res.get("main_office", ""))
    if c:
        lines += ["### C and C++ office workloads side by side", "",
                  "C: %s." % report.describe(c), "", beside(c, w), ""]
    lines += ["### Relocation mix", "",
              "Counted with `readelf -rW` over the files each workload built (the C++ "
              "runtime copies of the musl build on their own row; glibc's libstdc++ and "
              "both libcs are not counted). *symbolic* = `R_X86_64_64`/`R_386_32` "
              "(a lookup by name each, unless sorted relocations reuse one); the last "
              "columns count, among the non-relative relocations, those against vtable, "
              "typeinfo and typeinfo-name symbols, which direct binding leaves to the "
              "standard lookup (vague linkage), and those against a symbol the file "
              "defines itself (readelf shows a symbol value): still a lookup, since a "
              "definition earlier in the global scope would interpose.", "", mix_table(r.get("mix", {})), ""]
    sy = w.get("linkopt_symbols")
    if sy:
        lines += ["linkopt's classification of the musl build's dynamic symbols (sum of "
                  "`linkopt -v` over every file): %d symbols, %d bound directly, %d "
                  "defined in their own file, %d vague, %d defined in several libraries, "
                  "%d not found." % (sy["symbols"], sy["direct"], sy["defined"], sy["vague"],
                                     sy["multi"], sy["not_found"]), ""]
    st = [(n, loader_line(w, n)) for n in ("qb-none", "qb-all")]
    st = [(n, s) for n, s in st if s]
    if st:
        lines += ["quickbind's statistics at start-up (`LD_DEBUG=statistics`): " +
                  "; ".join("%s: %s" % (run.LABELS[n], s) for n, s in st) + ".", ""]
    return lines
