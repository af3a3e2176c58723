#!/usr/bin/env python3
"""The abseil row of the benchmark: many C++ shared libraries binding into
each other, the seed's own case in real code, against Debian's glibc build
of the same abseil version.

The musl build is the tree of make check-real-large (scripts/real/abseil.sh,
cached in QB_CACHE/abseil-VERSION/ARCH/tree: libraries and the C++ runtime
in lib/, headers at the top), built with the musl C++ toolchain (libc++
shared); Debian's is the system's libabsl20220623 with libabsl-dev's
headers (scripts/deps.sh, both architectures), built with g++ (i386:
i686-linux-gnu-g++) and libstdc++.

Two programs, both compiled here from bench/abseil/startup.cc, once with
the musl C++ toolchain against the musl build and once with g++ against
Debian's:
  startup      flags, strings, formatting, time, synchronization, hashing,
               containers, status and cord, linked --as-needed: its
               closure holds about 40 of abseil's libraries
  startup-all  the same program linked --no-as-needed with every abseil
               library Debian ships (the whole set)
Variants (bench/realapp.py): glibc lazy and LD_BIND_NOW=1 (Debian's
build), musl, quickbind without tables, and after one linkopt run over
every ELF file of the layout (programs as apps).  Wall time, instructions
and the binding work as for ICU (bench/icubench.py), the loader's own
account (LD_DEBUG=statistics) and how linkopt bound each referenced
symbol (realapp.bind_breakdown). One more row, the floor of loading: a
static program that maps the libraries quickbind loads for the program
(its --list, absolute paths) as a loader must, and does nothing else
(bench/mapfloor.c).
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
HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
SOURCE = os.path.join(HERE, "abseil", "startup.cc")
DEB_ABSL = "/usr/include/absl"
RUNTIME = ("libc++.so.1", "libc++abi.so.1", "libunwind.so.1")
# what startup.cc uses, as pkg-config names Debian's libraries for it
# (absl_flags_parse absl_str_format absl_cord absl_statusor absl_time
# absl_synchronization absl_hash absl_flat_hash_map and their requirements)
LIBS = """flags_parse flags_usage flags_usage_internal flags_internal flags_marshalling
flags_reflection flags_private_handle_accessor flags_commandlineflag
flags_commandlineflag_internal flags_config flags_program_name statusor status
str_format_internal strerror cord cordz_info cord_internal cordz_functions cordz_handle
hash city bad_variant_access low_level_hash raw_hash_set bad_optional_access
hashtablez_sampler exponential_biased synchronization graphcycles_internal stacktrace
symbolize debugging_internal demangle_internal malloc_internal time civil_time strings
strings_internal base spinlock_wait int128 time_zone throw_delegate raw_logging_internal
log_severity""".split()
LIBS = ["absl_" + n for n in LIBS]
PROGRAMS = [("startup", "startup (flags, strings, time, ...: about 40 abseil libraries)",
             ["startup", "--words=alpha,beta,alpha", "--repeat=2"]),
            ("all", "startup-all (linked with every abseil library Debian ships)",
             ["startup-all", "--words=alpha,beta,alpha", "--repeat=2"])]
MIN_RUNS = 101


def tree_dir(arch="x86_64"):
    """The built tree of the cache, or None."""
    for built in sorted(glob.glob(os.path.join(CACHE, "abseil-*", arch, ".built"))):
        t = os.path.join(os.path.dirname(built), "tree")
        if glob.glob(os.path.join(t, "lib", "libabsl_base.so*")):
            return t
    return None


def debian_set(arch="x86_64"):
    """Every abseil library Debian ships, by the name -l takes."""
    return sorted(os.path.basename(p)[3:-3] for p in
                  glob.glob(os.path.join(realapp.ARCHS[arch]["deb_libdir"], "libabsl_*.so")))


def compile_prog(cxx, incdir, libdir, out, libs, whole):
    """startup.cc built by cxx against the abseil at incdir/libdir (incdir
    holding absl/ alone, so that a cross compiler keeps its own system
    headers)."""
    link = ["-Wl,--no-as-needed" if whole else "-Wl,--as-needed"]
    cmd = ([cxx, "-O2", "-std=c++17", "-I", incdir, "-o", out, SOURCE, "-L", libdir] + link
           + ["-l" + n for n in libs] + ["-Wl,--as-needed", "-lrt"])
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode:
        raise RuntimeError("%s: %s" % (" ".join(cmd[:2] + [out]),
                                       r.stdout.decode(errors="replace")[-400:]))


def closure_count(ldso, exe, env):
    """How many abseil libraries exe's closure holds (its loader's --list)."""
    r = subprocess.run([ldso, "--list", exe], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return sum(1 for line in r.stdout.decode(errors="replace").splitlines() if "libabsl_" in line)


def prepare(out, tree, loader, linkopt, arch="x86_64", msym=None):
    ar = realapp.ARCHS[arch]
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    lnk = tempfile.mkdtemp(prefix="qba.")
    q = realapp.short_link(lnk, loader)
    whole = [n for n in debian_set(arch)
             if glob.glob(os.path.join(tree, "lib", "lib%s.so*" % n))]
    res = {"whole_set": len(whole), "debian_set": len(debian_set(arch)), "arch": arch}
    # Debian's build of the same programs
    deb = os.path.join(out, "glibc")
    inc = os.path.join(out, "include")
    os.makedirs(deb)
    os.makedirs(inc)
    os.symlink(DEB_ABSL, os.path.join(inc, "absl"))
    for key, _, argv in PROGRAMS:
        compile_prog(ar["gxx"], inc, ar["deb_libdir"], os.path.join(deb, argv[0]),
                     whole if key == "all" else LIBS, key == "all")
    trees = {"glibc": deb}
    musl_cxx = os.path.join(TOP, "scripts", "cxx", ar["musl_cxx"])
    for name in ("musl", "qb-none", "qb-all") + (("musl-sym",) if msym else ()):
        t = os.path.join(out, name)
        os.makedirs(os.path.join(t, "bin"))
        os.makedirs(os.path.join(t, "lib"))
        # the libraries Debian ships (the tree also holds abseil's test
        # helpers, which need googletest)
        for p in [q for n in whole for q in glob.glob(os.path.join(tree, "lib", "lib%s.so*" % n))] + \
                [os.path.join(tree, "lib", n) for n in RUNTIME]:
            subprocess.run(["cp", "-a", p, os.path.join(t, "lib")], check=True)
        if name == "musl":
            for key, _, argv in PROGRAMS:
                compile_prog(musl_cxx, tree, os.path.join(t, "lib"), os.path.join(t, "bin", argv[0]),
                             whole if key == "all" else LIBS, key == "all")
        else:
            for p in glob.glob(os.path.join(out, "musl", "bin", "*")):
                shutil.copy2(p, os.path.join(t, "bin"))
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
    res["closure"] = {}
    for key, _, argv in PROGRAMS:
        res["closure"][key] = {
            "musl": closure_count(ar["musl_ldso"], os.path.join(trees["musl"], "bin", argv[0]),
                                  dict(run.BASE_ENV, LD_LIBRARY_PATH=os.path.join(trees["musl"], "lib"))),
            "glibc": closure_count(ar["glibc_ldso"], os.path.join(deb, argv[0]), run.BASE_ENV)}
    return trees, lnk, res


def map_floor(out, trees, loader, prog, arch):
    """The variant that maps the libraries quickbind loads for prog (its
    --list, the C library it stands for left out) and does nothing else:
    bench/mapfloor.c, built static for arch."""
    exe = os.path.join(out, "mapfloor")
    if not os.path.exists(exe):
        subprocess.run([realapp.ARCHS[arch]["musl_cc"], "-static", "-std=gnu11", "-Wall", "-Wextra",
                        "-Werror", "-O2", "-o", exe, os.path.join(HERE, "mapfloor.c")], check=True)
    t = trees["qb-none"]
    r = subprocess.run([loader, "--list", os.path.join(t, "bin", prog[2][0])],
                       env=dict(run.BASE_ENV, LD_LIBRARY_PATH=os.path.join(t, "lib")),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    rows = [line.split() for line in r.stdout.decode(errors="replace").splitlines()]
    libs = [w[2] for w in rows if len(w) >= 3 and w[1] == "=>" and
            os.path.realpath(w[2]) != os.path.realpath(loader)]
    listfile = os.path.join(out, "maplist-" + prog[0])
    with open(listfile, "w") as f:
        f.write("".join(p + "\n" for p in libs))
    return {"name": "map-floor", "exe": exe, "args": [listfile], "env": dict(run.BASE_ENV), "cwd": out,
            "libs": len(libs)}


def variant(name, trees, out, prog):
    _, _, argv = prog
    env = dict(run.BASE_ENV)
    if name.startswith("glibc"):
        exe = os.path.join(trees["glibc"], argv[0])
        if name == "glibc-now":
            env["LD_BIND_NOW"] = "1"
    else:
        t = trees[name]
        exe = os.path.join(t, "bin", argv[0])
        env["LD_LIBRARY_PATH"] = os.path.join(t, "lib")
    return {"name": name, "exe": exe, "args": argv[1:], "env": env, "cwd": out}


def missing(arch="x86_64"):
    """Why the row cannot be measured here, or None."""
    ar = realapp.ARCHS[arch]
    if not tree_dir(arch):
        return ("the musl abseil build for %s is not there (make check-real-large "
                "REAL_LARGE=abseil:%s builds it into %s)" % (arch, arch, CACHE))
    if not os.path.exists(os.path.join(DEB_ABSL, "flags", "parse.h")) or not debian_set(arch):
        return ("Debian's abseil for %s is not installed (libabsl-dev: scripts/deps.sh "
                "installs it)" % arch)
    if not shutil.which(ar["gxx"]):
        return "no %s for Debian's build of the programs" % ar["gxx"]
    return None


def measure(out, loader, linkopt, runs, warmup, do_cg, log, arch="x86_64"):
    out = os.path.abspath(out)
    why = missing(arch)
    if why:
        log("abseil row skipped: " + why)
        return {"skipped": why}
    t0 = time.time()
    runs = max(runs, MIN_RUNS)
    # musl's binding, counted on an unstripped build of the same musl
    # (scripts/musl.sh) when the cache has one, as for ICU
    msym = realapp.musl_symbols(arch)
    try:
        trees, lnk, res = prepare(out, tree_dir(arch), os.path.abspath(loader),
                                  os.path.abspath(linkopt), arch, msym)
    except RuntimeError as e:
        log("abseil row skipped: %s" % e)
        return {"skipped": str(e)}
    res["musl_symbols"] = msym[0] if msym else None
    res["runs"], res["warmup"] = runs, warmup
    res["programs"] = {}
    res["stats"] = {}
    try:
        for prog in PROGRAMS:
            vs = [variant(n, trees, out, prog) for n, _ in VARIANTS]
            vs.append(map_floor(out, trees, os.path.abspath(loader), prog, arch))
            for v in vs:
                realapp.check(v, output=True)
            ref = next(v for v in vs if v["name"] == "musl").get("stdout")
            with tempfile.TemporaryDirectory(prefix="qba-cg.") as tmp:
                p = realapp.measure_program(vs, runs, warmup, do_cg, tmp)
                realapp.count_musl_binding(p, msym and variant("musl-sym", trees, out, prog), do_cg, tmp)
            realapp.same_output(p, vs, ref, lambda v: v["name"] != "map-floor")
            p["map-floor"]["libs"] = vs[-1]["libs"]
            res["programs"][prog[0]] = p
            res["stats"][prog[0]] = realapp.qb_statistics(vs)
            log("abseil: %s measured" % prog[0])
    finally:
        shutil.rmtree(lnk, ignore_errors=True)
    res["seconds"] = round(time.time() - t0)
    return res


def section(res, key="abseil"):
    """Markdown lines for the report (key: abseil, or abseil-i386)."""
    g, lines = realapp.section_head(res, key, "Abseil: many C++ libraries binding into each other"
                                    + (" (i386)" if key.endswith("i386") else ""))
    if not g:
        return lines
    c = g["closure"]
    lines.append("Abseil built for musl %s with the musl C++ toolchain (scripts/real/abseil.sh) "
                 "against Debian's glibc build of the same version (libabsl20220623, "
                 "libabsl-dev, %s), the programs compiled from bench/abseil/startup.cc on "
                 "both sides: `startup` (%d abseil libraries in its closure under musl, %d "
                 "under glibc) and `startup-all` (%d and %d: the %d libraries Debian ships). "
                 "Median wall ms of %d interleaved runs (after %d warm-up rounds; the last row maps "
                 "the program's libraries from a static program and does nothing else, "
                 "bench/mapfloor.c); "
                 "instructions of the process (%s); "
                 % (g.get("arch", "x86_64"), realapp.ARCHS[g.get("arch", "x86_64")]["gxx"],
                    c["startup"]["musl"], c["startup"]["glibc"], c["all"]["musl"],
                    c["all"]["glibc"], g["whole_set"], g["runs"], g["warmup"],
                    realapp.counter_text(g))
                 + realapp.columns_text(realapp.musl_binding_text(g)))
    lines += realapp.linkopt_lines(g)
    for key, label, _ in PROGRAMS:
        p = g["programs"].get(key)
        if p:
            lines += (realapp.program_lines(label, p) + realapp.musl_binding_lines(p)
                      + realapp.statistics_lines(g["stats"].get(key)))
    return lines + [""]


if __name__ == "__main__":
    realapp.main("abseil", "abseil", measure, section)
