#!/usr/bin/env python3
"""The ICU row of the benchmark: a large C++ program with big shared
libraries, against Debian's glibc build of the same ICU version.

The musl build is the tree of make check-real-large (scripts/real/icu.sh,
cached in QB_CACHE/icu-VERSION/ARCH/tree/source), built with the musl C++
toolchain (libc++ shared); Debian's is the system's libicu72 and
icu-devtools (scripts/deps.sh), built with g++ and libstdc++. The i386 row
has no Debian column: icu-devtools installs for one architecture only.

Each musl variant gets a copy of an installed layout made from the tree:
bin/ (ICU's tools: uconv, icuinfo, genrb, derb, makeconv, icupkg, ...)
and lib/ (libicudata, libicuuc, libicui18n, libicuio, libicutu,
libicutest and the C++ runtime), found through LD_LIBRARY_PATH.
Variants (bench/realapp.py):
  glibc-lazy, glibc-now   /usr/bin/uconv, /usr/bin/icuinfo under glibc's ld.so
  musl                    the layout as built (PT_INTERP: musl's loader)
  qb-none                 PT_INTERP naming quickbind
  qb-all                  and every ELF file optimized by one linkopt run
                          (linkopt -L lib bin/* lib/*: the programs as apps)
Programs: uconv --version, icuinfo, and two that work across the
libraries: uconv converting a 4 KB multilingual text from UTF-8 to UTF-16,
and transliterating it to Latin (uconv -x Any-Latin).
Wall time: median of interleaved runs through the static launcher, at
least MIN_RUNS rounds whatever the suite's --runs (a run takes
milliseconds: a hundred rounds of every variant and program take seconds,
and a median of ten is at the mercy of a machine shared with other work).
Instructions: callgrind, with the loader's object and the binding work
(realapp.callgrind).  musl's libc.so is stripped; when scripts/musl.sh
has built the same musl version (unstripped) in the cache, the musl row's
binding figure is counted on a copy running under that build.
The loader's own account (LD_DEBUG=statistics) of quickbind's variants,
and how linkopt bound each referenced symbol of the files
(realapp.bind_breakdown), complete the row.
"""

import glob
import os
import shutil
import subprocess
import tempfile
import time

import realapp
import run
from realapp import VARIANTS

CACHE = os.environ.get("QB_CACHE", "/var/cache/quickbind")
DEB_UCONV = "/usr/bin/uconv"
DEB_ICUINFO = "/usr/bin/icuinfo"
INPUT = "input.txt"
PROGRAMS = [("version", "uconv --version", ["uconv", "--version"]),
            ("icuinfo", "icuinfo", ["icuinfo"]),
            ("convert", "uconv -f utf-8 -t utf-16 (4 KB of text in 17 scripts)",
             ["uconv", "-f", "utf-8", "-t", "utf-16", INPUT]),
            ("translit", "uconv -x Any-Latin (the same text)",
             ["uconv", "-f", "utf-8", "-t", "utf-8", "-x", "Any-Latin", INPUT])]
# outputs that do not depend on the build (icuinfo prints the compiler)
SAME_OUTPUT = ("convert", "translit")
MIN_RUNS = 101


def source_dir(arch="x86_64"):
    """The built source/ of the cache, or None."""
    for built in sorted(glob.glob(os.path.join(CACHE, "icu-*", arch, ".built"))):
        src = os.path.join(os.path.dirname(built), "tree", "source")
        if os.path.exists(os.path.join(src, "bin", "uconv")):
            return src
    return None


def layout(src, dst):
    """The installed layout of the tree: bin/ and lib/."""
    os.makedirs(os.path.join(dst, "bin"))
    os.makedirs(os.path.join(dst, "lib"))
    progs = [p for p in glob.glob(os.path.join(src, "bin", "*")) if os.path.isfile(p)]
    for p in progs + [os.path.join(src, "tools", "icuinfo", "icuinfo")]:
        shutil.copy2(p, os.path.join(dst, "bin"))
    for d in ("lib", "tools/ctestfw"):
        for p in glob.glob(os.path.join(src, d, "lib*.so*")):
            subprocess.run(["cp", "-a", p, os.path.join(dst, "lib")], check=True)


def prepare(out, src, loader, linkopt, msym):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    with open(os.path.join(src, "test", "testdata", "ConverterSelectorTestUTF8.txt"), "rb") as f:
        text = f.read()
    with open(os.path.join(out, INPUT), "wb") as f:
        f.write(text[:text.index(b"\n", 4096) + 1])
    lnk = tempfile.mkdtemp(prefix="qbi.")
    q = realapp.short_link(lnk, loader)
    trees, res = {}, {}
    names = ["musl", "qb-none", "qb-all"] + (["musl-sym"] if msym else [])
    for name in names:
        t = os.path.join(out, name)
        layout(src, t)
        trees[name] = t
        if name == "musl":
            continue
        elfs = realapp.elf_files(t)
        interp = realapp.short_link(lnk, msym[1], "m") if name == "musl-sym" else q
        for f in elfs:
            realapp.set_interp(f, interp)
        if name == "qb-all":
            t0 = time.time()
            res["refs"] = realapp.linkopt_all(linkopt, os.path.join(t, "lib"), elfs)
            res["linkopt_s"] = round(time.time() - t0, 1)
            res["binding"] = realapp.bind_breakdown(linkopt, elfs)
            res["files"] = len(elfs)
    res["libraries"] = sorted(os.path.basename(p) for p in glob.glob(os.path.join(out, "musl", "lib", "*"))
                              if not os.path.islink(p))
    res["programs_built"] = len(os.listdir(os.path.join(out, "musl", "bin")))
    return trees, lnk, res


def variant(name, trees, out, prog):
    key, _, argv = prog
    env = dict(run.BASE_ENV)
    if name.startswith("glibc"):
        exe = DEB_UCONV if argv[0] == "uconv" else DEB_ICUINFO
        if name == "glibc-now":
            env["LD_BIND_NOW"] = "1"
    else:
        t = trees[name]
        exe = os.path.join(t, "bin", argv[0])
        env["LD_LIBRARY_PATH"] = os.path.join(t, "lib")
    return {"name": name, "exe": exe, "args": argv[1:], "env": env, "cwd": out}


def variant_names(arch):
    """The variants of the row: no Debian build on i386."""
    return [n for n, _ in VARIANTS if arch == "x86_64" or not n.startswith("glibc")]


def missing(arch="x86_64"):
    """Why the row cannot be measured here, or None."""
    if not source_dir(arch):
        return ("the musl ICU build for %s is not there (make check-real-large REAL_LARGE=icu:%s "
                "builds it into %s)" % (arch, arch, CACHE))
    if arch == "x86_64" and (not os.path.exists(DEB_UCONV) or not os.path.exists(DEB_ICUINFO)):
        return "Debian's ICU tools are not installed (icu-devtools: scripts/deps.sh installs it)"
    return None


def measure(out, loader, linkopt, runs, warmup, do_cg, log, arch="x86_64"):
    out = os.path.abspath(out)
    why = missing(arch)
    if why:
        log("icu row skipped: " + why)
        return {"skipped": why}
    src = source_dir(arch)
    t0 = time.time()
    runs = max(runs, MIN_RUNS)
    msym = realapp.musl_symbols(arch)
    trees, lnk, res = prepare(out, src, os.path.abspath(loader), os.path.abspath(linkopt), msym)
    res["musl_symbols"] = msym[0] if msym else None
    res["arch"] = arch
    res["runs"], res["warmup"] = runs, warmup
    res["programs"] = {}
    res["stats"] = {}
    res["versions"] = {}
    try:
        for n, exe, env in (("musl", os.path.join(trees["musl"], "bin", "uconv"),
                             dict(run.BASE_ENV, LD_LIBRARY_PATH=os.path.join(trees["musl"], "lib"))),
                            ("glibc", DEB_UCONV, run.BASE_ENV))[:1 if arch != "x86_64" else 2]:
            r = subprocess.run([exe, "--version"], env=env, stdout=subprocess.PIPE)
            res["versions"][n] = r.stdout.decode(errors="replace").split()[-1:]
        for prog in PROGRAMS:
            vs = [variant(n, trees, out, prog) for n in variant_names(arch)]
            for v in vs:
                realapp.check(v, output=True)
            ref = next(v for v in vs if v["name"] == "musl").get("stdout")
            with tempfile.TemporaryDirectory(prefix="qbi-cg.") as tmp:
                p = realapp.measure_program(vs, runs, warmup, do_cg, tmp)
                realapp.count_musl_binding(p, msym and variant("musl-sym", trees, out, prog), do_cg, tmp)
            realapp.same_output(p, vs, ref, lambda v: prog[0] in SAME_OUTPUT
                                or not v["name"].startswith("glibc"))
            res["programs"][prog[0]] = p
            res["stats"][prog[0]] = realapp.qb_statistics(vs)
            log("icu: %s measured" % prog[0])
    finally:
        shutil.rmtree(lnk, ignore_errors=True)
    res["seconds"] = round(time.time() - t0)
    return res


def section(res, key="icu"):
    """Markdown lines for the report (key: icu, or icu-i386 for the i386 row)."""
    i386 = key.endswith("i386")
    g, lines = realapp.section_head(res, key, "ICU: a large C++ program" + (" (i386)" if i386 else ""))
    if not g:
        return lines
    lines.append("ICU %s built for musl %s with the musl C++ toolchain (scripts/real/icu.sh: %s; "
                 "%d programs) against %s. "
                 "Median wall ms of %d interleaved runs (after %d warm-up rounds); instructions of "
                 "the process (%s); "
                 % (" ".join(g["versions"].get("musl", [])), g.get("arch", "x86_64"),
                    ", ".join(g["libraries"]), g["programs_built"],
                    "no Debian build (icu-devtools installs for one architecture only)" if i386
                    else "Debian's glibc build %s (libicu72, icu-devtools)"
                    % " ".join(g["versions"].get("glibc", [])),
                    g["runs"], g["warmup"], realapp.counter_text(g))
                 + realapp.columns_text(realapp.musl_binding_text(g)))
    lines += realapp.linkopt_lines(g)
    for key, label, _ in PROGRAMS:
        p = g["programs"].get(key)
        if not p:
            continue
        lines += realapp.program_lines(label, p) + realapp.musl_binding_lines(p)
        lines += realapp.statistics_lines(g["stats"].get(key))
    return lines + [""]


if __name__ == "__main__":
    realapp.main("icu", "ICU", measure, section)
