#!/usr/bin/env python3
"""quickbind benchmark suite, end to end: generate and build the workloads,
run them under every loader, write OUT/results.json, OUT/report.md and
OUT/startup.png.

  bench.py                 the full suite (make bench)
  bench.py --quick         a small version of everything, for a quick look
  bench.py --demo          ~40 libraries, a short table on stdout (make demo)
  bench.py --i386-only     only the i386 column
  bench.py --no-i386       only x86_64
  bench.py --no-image      without the image row (busybox, Lua, zlib of
                           `make image` in a chroot: as root, or
                           through a user namespace of its own)
  bench.py --no-gst        without the GStreamer row (bench/gstbench.py:
                           the stack of make check-real-large against
                           Debian's glibc build; skipped when not built)
  bench.py --no-icu        without the ICU row (bench/icubench.py: the
                           ICU of make check-real-large against Debian's
                           glibc build; skipped when not built)
  bench.py --no-abseil     without the abseil row (bench/abseilbench.py:
                           the abseil of make check-real-large against
                           Debian's glibc build; skipped when not built)
  bench.py --sweep-only    only the library-count sweep (x86_64)
  bench.py --cold-only     only the cold start-up rows (bench/cold.py: files
                           out of the page cache before each run; as root
                           the whole cache is dropped unless --evict files)
  bench.py --no-cold       without the cold start-up rows

Workload parameters (--libs, --funcs, ...) override the defaults.  The i386
column (glibc i386 lazy and LD_BIND_NOW=1, musl's i386 loader, quickbind
i386 without and with all tables) runs the same office workload (--i386-libs
to change its size) and the micro cases, not the sweep; it is skipped, with
the reason in the report, when the i386 toolchains or loaders are absent.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import cold  # noqa: E402
import cxxbench  # noqa: E402
import gstbench  # noqa: E402
import icubench  # noqa: E402
import abseilbench  # noqa: E402
import gen     # noqa: E402
import image   # noqa: E402
import report  # noqa: E402
import run     # noqa: E402


def parse(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="build/bench")
    ap.add_argument("--quick", action="store_true",
                    help="small workloads, 5 runs: minutes, not tens of minutes")
    ap.add_argument("--demo", action="store_true")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--libs", type=int)
    ap.add_argument("--funcs", type=int)
    ap.add_argument("--deps", type=int)
    ap.add_argument("--refs", type=int)
    ap.add_argument("--weak", type=int)
    ap.add_argument("--sweep", help="comma-separated library counts ('' for none)")
    ap.add_argument("--sweep-only", action="store_true",
                    help="only the library-count sweep: no default workload, micro cases, "
                    "image, GStreamer and ICU rows, C++ workload or i386 column")
    ap.add_argument("--sweep-variants", default=",".join(SWEEP_VARIANTS),
                    help="variants run at every size of the sweep (default: %(default)s)")
    ap.add_argument("--sweep-floor-variants", default=",".join(SWEEP_FLOOR_VARIANTS),
                    help="variants run on the floor workload at every size of the "
                    "sweep (default: %(default)s; '' for none)")
    ap.add_argument("--dlopen-syms", type=int)
    ap.add_argument("--chain-syms", type=int)
    ap.add_argument("--chain", type=int)
    ap.add_argument("--no-micro", action="store_true")
    ap.add_argument("--no-floor", action="store_true",
                    help="skip the floor workload (the office workload with no "
                    "symbolic reference between libraries)")
    ap.add_argument("--runs", type=int)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--no-strace", action="store_true",
                    help="leave system calls uncounted (one run of each variant "
                    "under strace -f -c otherwise)")
    ap.add_argument("--loader", default="build/lib/ld-quickbind-x86_64.so.1")
    ap.add_argument("--linkopt", default="build/bin/linkopt")
    ap.add_argument("--no-image", action="store_true",
                    help="skip the image row (the musl image's programs in a chroot)")
    ap.add_argument("--no-gst", action="store_true",
                    help="without the GStreamer row (issue 27; skipped anyway when the "
                    "stack of make check-real-large is not built)")
    ap.add_argument("--no-icu", action="store_true",
                    help="without the ICU row (issue 27; skipped anyway when the ICU "
                    "build of make check-real-large is not there)")
    ap.add_argument("--no-abseil", action="store_true",
                    help="without the abseil row (skipped anyway when the abseil "
                    "build of make check-real-large is not there)")
    ap.add_argument("--no-i386", action="store_true", help="skip the i386 column")
    ap.add_argument("--i386-only", action="store_true", help="only the i386 column")
    ap.add_argument("--i386-libs", type=int,
                    help="libraries of the i386 office workload (default: --libs)")
    ap.add_argument("--i386-loader", default="build/lib/ld-quickbind-i386.so.1")
    ap.add_argument("--i386-count-targets", action="store_true",
                    help="where i386 instructions are counted under qemu, count only "
                    "the variants the issue-15 targets compare (for the slow block-log "
                    "counter; the plugin counts every variant in seconds)")
    cxxbench.add_args(ap)
    cold.add_args(ap)
    a = ap.parse_args(argv)
    if a.no_i386 and a.i386_only:
        ap.error("--no-i386 and --i386-only exclude each other")
    # Defaults per mode; explicit options win.
    if a.demo:
        d = dict(libs=40, funcs=1500, deps=8, refs=1500, weak=40, sweep="",
                 runs=10, dlopen_syms=0, chain_syms=0, chain=0)
        a.no_micro = a.no_callgrind = a.no_floor = True
        if not a.i386_only and not a.no_i386:
            a.no_i386 = "the demo is x86_64 only (--demo --i386-only for i386)"
    elif a.quick:
        d = dict(libs=25, funcs=400, deps=8, refs=400, weak=40, sweep="5,10,25",
                 runs=5, dlopen_syms=2000, chain_syms=1000, chain=500)
    else:
        d = dict(libs=100, funcs=1500, deps=8, refs=1500, weak=40,
                 sweep="25,50,100,200,400", runs=10, dlopen_syms=20000,
                 chain_syms=4000, chain=2000)
    for k, v in d.items():
        if getattr(a, k) is None:
            setattr(a, k, v)
    if a.i386_libs is None:
        a.i386_libs = a.libs
    if a.sweep_only and not a.i386_only:
        a.no_i386 = "--sweep-only"
    for k in ("sweep_variants", "sweep_floor_variants"):
        names = [n for n in getattr(a, k).split(",") if n.strip()]
        bad = [n for n in names if n not in run.VARIANT_NAMES]
        if bad:
            ap.error("--%s: unknown variant %s (one of %s)" % (
                k.replace("_", "-"), ", ".join(bad), ",".join(run.VARIANT_NAMES)))
        setattr(a, k, names)
    cxxbench.defaults(a)
    cold.defaults(a, ap.error)
    a.runs = max(1, a.runs)
    return a


def build(a, kind, sub, arch="x86_64", **params):
    """Generates one workload under OUT/work/SUB (reused when unchanged)."""
    loader = a.i386_loader if arch == "i386" else a.loader
    argv = [kind, os.path.join(a.out, "work", sub), "--seed", str(a.seed),
            "--jobs", str(a.jobs), "--loader", loader, "--linkopt", a.linkopt,
            "--arch", arch]
    for k, v in params.items():
        argv += ["--" + k] + ([str(v)] if v != "" else [])
    ga = gen.parse_args(argv)
    t0 = time.time()
    meta = gen.generate(ga)
    log("built %s in %.0f s (linkopt: %s)" % (sub, time.time() - t0, meta["linkopt"]))
    return ga.out


def log(msg):
    print("bench: " + msg, file=sys.stderr, flush=True)


def office_params(a, libs):
    return dict(libs=libs, funcs=a.funcs, deps=a.deps, refs=a.refs, weak=a.weak)


def office_dir(a, libs):
    return "office-%d-%d-%d-%d-%d" % (libs, a.funcs, a.deps, a.refs, a.weak)


def measure_office(a, res, key, arch, main_dir, variants, cg, profile=(), qemu_counted=None,
                   floor_counted=None):
    """The main office workload, and its floor (the same libraries with no
    symbolic reference between them, under the same variants) timed in
    the same interleaved rounds (run.run_paired); the floor is stored in
    res["floors"][key] (report.py shows it as rows of that workload).
    The workload's static build is timed in the same rounds too."""
    loader = os.path.abspath(a.i386_loader if arch == "i386" else a.loader)
    if a.no_floor:
        return run.run_workload(main_dir, loader, a.runs, a.warmup, cg, cg, log=log,
                                variants=variants, profile=profile, qemu_counted=qemu_counted,
                                static=True)
    libs = a.i386_libs if arch == "i386" else a.libs
    sub = ("i386-" if arch == "i386" else "") + office_dir(a, libs) + "-floor"
    d = build(a, "office", sub, arch, floor="", **office_params(a, libs))
    w, f = run.run_paired(main_dir, d, loader, a.runs, a.warmup, cg, cg, log=log,
                          variants=variants, fvariants=variants, profile=profile,
                          qemu_counted=qemu_counted, fqemu_counted=floor_counted,
                          static=True)
    res.setdefault("floors", {})[key] = f
    return w


def musl_version(ldso="/lib/ld-musl-x86_64.so.1"):
    try:
        r = subprocess.run([ldso], stderr=subprocess.PIPE, stdout=subprocess.DEVNULL)
    except OSError:
        return "?"
    for line in r.stderr.decode(errors="replace").splitlines():
        if line.startswith("Version"):
            return line.split()[-1]
    return "?"


def i386_missing():
    """Why the i386 column cannot be measured on this machine, or None."""
    for cc in ("i386-linux-musl-gcc", "i686-linux-gnu-gcc"):
        if not shutil.which(cc):
            return "%s not found (scripts/deps.sh installs it)" % cc
    for f, what in ((gen.MUSL_I386_LDSO, "musl's i386 loader"),
                    (gen.GLIBC_I386_LDSO, "glibc's i386 loader")):
        if not os.path.exists(f):
            return "%s %s is missing (scripts/deps.sh installs it)" % (what, f)
    return None


# Where i386 instructions are counted under qemu (valgrind cannot run i386
# programs on a kernel that hands them to qemu-user), every variant is
# counted: the plugin counter takes about as long as a run under qemu.
# Without it qemu's block log takes one to two minutes per 100 M
# instructions, and --i386-count-targets limits the counts, per workload
# kind, to the variants the issue-15 targets compare.
I386_QEMU_COUNTED = {
    "office": ["glibc-now", "musl", "qb-none", "qb-all"],
    "floor": ["qb-none", "qb-all"],
    "dlopen": ["musl", "qb-none", "qb-all"],
    "chain": [],
}


def run_i386(a):
    """The i386 column: same workloads, i386 builds, five variants."""
    why = i386_missing()
    if why:
        log("i386 column skipped: " + why)
        return {"skipped": why}
    loader = os.path.abspath(a.i386_loader)
    res = {"loader": loader, "glibc_ldso": gen.GLIBC_I386_LDSO,
           "musl_ldso": gen.MUSL_I386_LDSO,
           "musl_version": musl_version(gen.MUSL_I386_LDSO), "workloads": {}}

    def counted(kind):
        return I386_QEMU_COUNTED[kind] if a.i386_count_targets else None

    def measure(wdir, cg, kind):
        return run.run_workload(wdir, loader, a.runs, a.warmup, cg, cg, log=log,
                                variants=run.I386_VARIANTS, qemu_counted=counted(kind))

    d = build(a, "office", "i386-" + office_dir(a, a.i386_libs), "i386",
              **office_params(a, a.i386_libs))
    key = "office-%d" % a.i386_libs
    res["workloads"][key] = measure_office(a, res, key, "i386", d, run.I386_VARIANTS,
                                           not a.no_callgrind, qemu_counted=counted("office"),
                                           floor_counted=counted("floor"))
    res["main_office"] = key
    if not a.no_micro:
        d = build(a, "dlopen", "i386-dlopen-%d" % a.dlopen_syms, "i386",
                  syms=a.dlopen_syms, refs=a.dlopen_syms)
        res["workloads"]["dlopen"] = measure(d, not a.no_callgrind, "dlopen")
        res["main_dlopen"] = "dlopen"
        d = build(a, "chain", "i386-chain-%d-%d" % (a.chain_syms, a.chain), "i386",
                  syms=a.chain_syms, chain=a.chain)
        res["workloads"]["chain"] = measure(d, not a.no_callgrind, "chain")
    return res


def demo_table(w):
    vs = w["variants"]
    now, musl = vs.get("glibc-now"), vs.get("musl")
    rows = [("loader", "median ms", "x glibc now", "x musl", "peak RSS KiB")]
    for n in run.VARIANT_NAMES:
        v = vs.get(n)
        if v is None:
            continue
        if not report.ok(v):
            rows.append((run.LABELS[n], v["status"][:60], "", "", ""))
            continue
        rows.append((run.LABELS[n], "%.2f" % report.wall(v),
                     report.ratio(report.wall(v), report.wall(now)),
                     report.ratio(report.wall(v), report.wall(musl)),
                     str(report.rss(v))))
    widths = [max(len(r[i]) for r in rows) for i in range(5)]
    out = []
    for i, r in enumerate(rows):
        out.append("  ".join(c.ljust(widths[j]) if j == 0 else c.rjust(widths[j])
                             for j, c in enumerate(r)))
        if i == 0:
            out.append("  ".join("-" * w for w in widths))
    return "\n".join(out)


# The variants whose instructions bench profiles, by function
PROFILED = ("qb-none", "qb-all")

# The library-count sweep (issue 28): the reference loader whose cost grows
# with the square of the libraries, quickbind without and with tables, and
# with tables under both choices of the global table; the floor under the
# loaders whose own part of it must stay linear.
SWEEP_VARIANTS = ["musl", "qb-none", "qb-all", "qb-all-gt0", "qb-all-gt1"]
SWEEP_FLOOR_VARIANTS = ["musl", "qb-none", "qb-all"]


def workload_meta(wdir):
    with open(os.path.join(wdir, "workload.json")) as f:
        return json.load(f)


def sweep_entry(v):
    """What the report needs of one measured variant."""
    out = {k: v[k] for k in ("status", "wall_ms", "rss_kb", "kernel", "syscalls") if k in v}
    cg = v.get("callgrind")
    if cg:
        out["callgrind"] = {k: cg[k] for k in ("Ir", "loader_Ir", "error", "seconds") if k in cg}
    return out


def sweep_part(a, res):
    """The office workload at each size of --sweep, its floor in the same
    interleaved rounds, wall time and (unless --no-callgrind) instructions
    of every variant, and linkopt's time on the workload."""
    loader = os.path.abspath(a.loader)
    cg = not a.no_callgrind
    res["sweep_params"] = dict(office_params(a, 0), seed=a.seed)
    for libs in [int(x) for x in a.sweep.split(",") if x.strip()]:
        d = build(a, "office", office_dir(a, libs), **office_params(a, libs))
        meta = workload_meta(d)
        point = {"libs": libs, "linkopt": {"status": meta.get("linkopt")}}
        point["linkopt"].update(meta.get("linkopt_time") or {})
        if a.no_floor or not a.sweep_floor_variants:
            w = run.run_workload(d, loader, a.runs, a.warmup, cg, False, log=log,
                                 variants=a.sweep_variants, objects=cg)
            f = None
        else:
            fd = build(a, "office", office_dir(a, libs) + "-floor", floor="",
                       **office_params(a, libs))
            w, f = run.run_paired(d, fd, loader, a.runs, a.warmup, cg, False, log=log,
                                  variants=a.sweep_variants,
                                  fvariants=a.sweep_floor_variants, objects=cg)
        point["variants"] = {n: sweep_entry(v) for n, v in w["variants"].items()}
        if f is not None:
            point["floor"] = {n: sweep_entry(v) for n, v in f["variants"].items()}
        res["sweep"].append(point)


def x86_64_part(a, res):
    """The x86_64 workloads under every variant, and the library-count sweep."""
    loader = os.path.abspath(a.loader)

    def measure(wdir, cg, profile=()):
        return run.run_workload(wdir, loader, a.runs, a.warmup, cg, cg, log=log,
                                profile=profile)

    if a.sweep_only:
        sweep_part(a, res)
        return
    main_dir = build(a, "office", office_dir(a, a.libs), **office_params(a, a.libs))
    key = "office-%d" % a.libs
    res["workloads"][key] = measure_office(a, res, key, "x86_64", main_dir, None,
                                           not a.no_callgrind, PROFILED)
    res["main_office"] = key
    if not a.no_micro:
        d = build(a, "dlopen", "dlopen-%d" % a.dlopen_syms,
                  syms=a.dlopen_syms, refs=a.dlopen_syms)
        res["workloads"]["dlopen"] = measure(d, not a.no_callgrind, PROFILED)
        res["main_dlopen"] = "dlopen"
        d = build(a, "chain", "chain-%d-%d" % (a.chain_syms, a.chain),
                  syms=a.chain_syms, chain=a.chain)
        res["workloads"]["chain"] = measure(d, not a.no_callgrind)
    sweep_part(a, res)


def cold_part(a, res):
    """The cold start-up rows (bench/cold.py) of the main office workload,
    its floor, the C++ workload, ICU, GStreamer and the image."""
    main_dir = build(a, "office", office_dir(a, a.libs), **office_params(a, a.libs))
    floor_dir = None if a.no_floor else build(a, "office", office_dir(a, a.libs) + "-floor",
                                              floor="", **office_params(a, a.libs))
    res["cold"] = cold.measure(a, log, main_dir, floor_dir, "office-%d" % a.libs,
                               report.describe(workload_meta(main_dir)))


def main(argv):
    a = parse(argv)
    run.COUNT_SYSCALLS = not a.no_strace
    os.makedirs(a.out, exist_ok=True)
    run.ensure_launcher(os.path.join(a.out, "qbb-launch"))
    res = {"command": "bench/bench.py " + " ".join(argv), "runs": a.runs,
           "warmup": a.warmup, "machine": run.machine_info(),
           "musl_version": musl_version(), "workloads": {}, "sweep": []}
    t0 = time.time()
    if not a.i386_only and not a.cold_only:
        x86_64_part(a, res)
    if not a.i386_only and not a.sweep_only and not a.cold_only:
        if not a.no_image and not a.demo:
            res["image"] = image.measure(os.path.join(a.out, "image"), a.loader, a.linkopt,
                                         a.runs, a.warmup, not a.no_callgrind, log)
        if not a.no_gst and not a.demo:
            res["gst"] = gstbench.measure(os.path.join(a.out, "gst"), a.loader, a.linkopt,
                                          a.runs, a.warmup, not a.no_callgrind, log)
        # the C++ applications on both architectures (i386 unless --no-i386)
        archs = ["x86_64"] + ([] if a.no_i386 else ["i386"])
        for key, mod, skip in (("icu", icubench, a.no_icu), ("abseil", abseilbench, a.no_abseil)):
            for arch in archs if not skip and not a.demo else []:
                k = key if arch == "x86_64" else key + "-" + arch
                res[k] = mod.measure(os.path.join(a.out, k),
                                     a.loader if arch == "x86_64" else a.i386_loader, a.linkopt,
                                     a.runs, a.warmup, not a.no_callgrind, log, arch=arch)
        res["cxx"] = cxxbench.measure(a, log, os.path.join(a.out, "work", office_dir(a, a.libs)))
    if a.cold_only:
        pass
    elif a.no_i386:
        res["i386"] = {"skipped": a.no_i386 if isinstance(a.no_i386, str) else "--no-i386"}
    else:
        res["i386"] = run_i386(a)
    if a.no_cold:
        if not a.demo:
            res["cold"] = {"skipped": a.no_cold if isinstance(a.no_cold, str) else "--no-cold"}
    else:
        cold_part(a, res)
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump(res, f, indent=1)
    report.render(res, a.out)
    log("done in %.0f s: %s" % (time.time() - t0, os.path.join(a.out, "report.md")))
    i386 = res.get("i386", {})
    w = res["workloads"].get(res.get("main_office")) or \
        i386.get("workloads", {}).get(i386.get("main_office"))
    if a.demo and w:
        print()
        print(report.describe(w))
        print(demo_table(w))
    if a.demo:
        print()
        print("report: %s" % os.path.join(a.out, "report.md"))
        print("chart:  %s" % (res.get("chart") or "not written (see the report)"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
