#!/usr/bin/env python3
"""The GStreamer row of the benchmark (issue 27): a plugin host at scale,
against Debian's glibc build of the same GStreamer version.

The musl build is the stack of make check-real-large (scripts/real/gst.sh,
cached in QB_CACHE/gst-VERSION/x86_64/tree/stage); Debian's is the system's
gstreamer1.0-tools and base/good plugins (scripts/deps.sh).  Both run the
same plugin set: the plugins of the musl build that Debian also ships
(every plugin path is set explicitly, the built-in one never used).

Variants (a copy of the stage each, under OUT/gst):
  glibc-lazy, glibc-now   /usr/bin/gst-*-1.0 under glibc's ld.so
  musl                    the stage as built (PT_INTERP: musl's loader)
  qb-none                 PT_INTERP naming quickbind
  qb-all                  and every ELF file optimized by one linkopt run
                          (the programs as apps, the plugins as modules)
Programs: gst-inspect-1.0 listing every plugin with the registry rebuilt
(the plugin scanner, a child process, loads every plugin) and with it warm,
and gst-launch-1.0 -q fakesrc num-buffers=1 ! fakesink (warm registry).
Wall time: median of interleaved runs through the static launcher.
Instructions: callgrind with --trace-children (the scanner counts), and the
loader's share: the instructions inside the loader's object (glibc's ld.so;
for musl and quickbind the loader is also libc, so their figure holds libc's
own work too, the same musl code in both), and for quickbind and glibc the
binding work proper: inclusive instructions of the relocation functions
(qb_relocate_all at start-up and qb_relocate in dlopen; _dl_relocate_object
and the lazy _dl_fixup).  musl's libc.so
is stripped, so its binding work alone is not measured.
"""

import glob
import os
import random
import re
import shutil
import statistics
import struct
import subprocess
import tempfile
import time

import run

CACHE = os.environ.get("QB_CACHE", "/var/cache/quickbind")
DEB_PLUGINS = "/usr/lib/x86_64-linux-gnu/gstreamer-1.0"
DEB_SCANNER = "/usr/lib/x86_64-linux-gnu/gstreamer1.0/gstreamer-1.0/gst-plugin-scanner"
VARIANTS = [("glibc-lazy", "glibc ld.so (lazy), Debian's build"),
            ("glibc-now", "glibc ld.so LD_BIND_NOW=1, Debian's build"),
            ("musl", "musl ld.so"),
            ("qb-none", "quickbind, no tables"),
            ("qb-all", "quickbind, all tables (linkopt)")]
PROGRAMS = [("inspect-cold", "gst-inspect-1.0 (registry rebuilt)", ["gst-inspect-1.0"], True),
            ("inspect-warm", "gst-inspect-1.0 (registry warm)", ["gst-inspect-1.0"], False),
            ("launch", "gst-launch-1.0 fakesrc num-buffers=1 ! fakesink",
             ["gst-launch-1.0", "-q", "fakesrc", "num-buffers=1", "!", "fakesink"], False)]
ANNOTATE_LINE = re.compile(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(\S+)")
BINDING_FUNCS = {"glibc": ("_dl_relocate_object", "_dl_fixup"),
                 # start-up relocation runs in qb_relocate_all (through GCC's
                 # qb_relocate.part.0), dlopen's in qb_relocate: disjoint
                 "qb": ("qb_relocate_all", "qb_relocate")}


def stage_dir():
    """The built stage of the cache, or None."""
    for built in sorted(glob.glob(os.path.join(CACHE, "gst-*", "x86_64", ".built"))):
        st = os.path.join(os.path.dirname(built), "tree", "stage")
        if os.path.exists(os.path.join(st, "bin", "gst-inspect-1.0")):
            return st
    return None


def version(cmd, env):
    r = subprocess.run(cmd + ["--version"], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    for line in r.stdout.decode(errors="replace").splitlines():
        if line.startswith("GStreamer "):
            return line.split()[1]
    return None


def set_interp(path, interp):
    """Replace PT_INTERP of an ELF file in place (NUL-padded, never longer)."""
    with open(path, "r+b") as f:
        h = f.read(64)
        if h[:4] != b"\x7fELF" or h[4] != 2:
            return
        phoff, = struct.unpack_from("<Q", h, 32)
        phentsize, phnum = struct.unpack_from("<HH", h, 54)
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            ph = f.read(phentsize)
            if struct.unpack_from("<I", ph, 0)[0] == 3:
                off, = struct.unpack_from("<Q", ph, 8)
                size, = struct.unpack_from("<Q", ph, 32)
                b = interp.encode()
                if len(b) >= size:
                    raise RuntimeError("%s: PT_INTERP too short for %s" % (path, interp))
                f.seek(off)
                f.write(b + b"\0" * (size - len(b)))
                return


def elf_files(root):
    out = []
    for d, _, fs in os.walk(root):
        for n in fs:
            p = os.path.join(d, n)
            if os.path.islink(p) or not os.path.isfile(p):
                continue
            with open(p, "rb") as f:
                if f.read(4) == b"\x7fELF":
                    out.append(p)
    return sorted(out)


def prepare(out, stage, loader, linkopt, log):
    """The variants' trees and the plugin set both builds have."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    ours = {os.path.basename(p) for p in glob.glob(os.path.join(stage, "lib/gstreamer-1.0/*.so"))}
    theirs = {os.path.basename(p) for p in glob.glob(os.path.join(DEB_PLUGINS, "*.so"))}
    common = sorted(ours & theirs)
    debdir = os.path.join(out, "glibc-plugins")
    os.makedirs(debdir)
    for n in common:
        os.symlink(os.path.join(DEB_PLUGINS, n), os.path.join(debdir, n))
    # PT_INTERP of a musl program has room for 24 bytes: quickbind through
    # a short link
    lnk = tempfile.mkdtemp(prefix="qbg.")
    os.symlink(os.path.abspath(loader), os.path.join(lnk, "q"))
    trees = {}
    for name in ("musl", "qb-none", "qb-all"):
        t = os.path.join(out, name)
        subprocess.run(["cp", "-a", stage, t], check=True)
        for p in glob.glob(os.path.join(t, "lib/gstreamer-1.0/*.so")):
            if os.path.basename(p) not in common:
                os.unlink(p)
        # what the programs do not load, left out of the optimized set
        for sub in ("include", "share", "lib/pkgconfig"):
            shutil.rmtree(os.path.join(t, sub), ignore_errors=True)
        trees[name] = t
        if name == "musl":
            continue
        elfs = elf_files(t)
        for f in elfs:
            set_interp(f, os.path.join(lnk, "q"))
        if name == "qb-all":
            r = subprocess.run([linkopt, "-v", "-L", os.path.join(t, "lib")] + elfs,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if r.returncode != 0:
                raise RuntimeError("linkopt: " + r.stdout.decode(errors="replace")[-400:])
            breakdown = refs(r.stdout.decode(errors="replace"))
    log("gst: %d plugins in both builds (%d built for musl, %d in Debian's)"
        % (len(common), len(ours), len(theirs)))
    return trees, debdir, lnk, len(common), len(ours), len(theirs), breakdown


REF_KINDS = ("symbols", "direct", "defined", "vague", "multi", "nodirect", "not found")


def refs(verbose):
    """Totals of linkopt -v's per-file counts: the dynamic symbols, bound
    directly, defined by the file itself, vague (C++ vague linkage, weak),
    defined by more than one library, no-direct, not found in the closure
    (a plugin's references into its host, or undefined weak ones)."""
    tot = dict.fromkeys(REF_KINDS, 0)
    for line in verbose.splitlines():
        m = re.search(r": (\d+) symbols: (.*?);", line)
        if not m:
            continue
        tot["symbols"] += int(m.group(1))
        for part in m.group(2).split(", "):
            n, _, kind = part.partition(" ")
            if kind in tot:
                tot[kind] += int(n)
    return tot


def variant(name, trees, debdir, out, prog):
    """exe, args and environment of one program under one variant."""
    key, _, argv, cold = prog
    reg = os.path.join(out, "registry", "%s-%s.bin" % (name, key.split("-")[0]))
    env = dict(run.BASE_ENV, GST_REGISTRY_1_0=reg, HOME=os.path.join(out, "home"))
    if name.startswith("glibc"):
        exe = "/usr/bin/" + argv[0]
        env.update(GST_PLUGIN_SYSTEM_PATH_1_0=debdir, GST_PLUGIN_SCANNER_1_0=DEB_SCANNER)
        if name == "glibc-now":
            env["LD_BIND_NOW"] = "1"
    else:
        t = trees[name]
        exe = os.path.join(t, "bin", argv[0])
        env.update(GST_PLUGIN_SYSTEM_PATH_1_0=os.path.join(t, "lib/gstreamer-1.0"),
                   GST_PLUGIN_SCANNER_1_0=os.path.join(t, "libexec/gstreamer-1.0/gst-plugin-scanner"),
                   LD_LIBRARY_PATH=os.path.join(t, "lib"))
    return {"name": name, "exe": exe, "args": argv[1:], "env": env, "cwd": out,
            "registry": reg, "cold": cold}


def once(v):
    if v["cold"] and os.path.exists(v["registry"]):
        os.unlink(v["registry"])
    return run.spawn_timed(v)


def callgrind(v, tmp):
    """Total instructions of the process tree, in the loader's object, and
    in the binding functions (inclusive)."""
    if v["cold"] and os.path.exists(v["registry"]):
        os.unlink(v["registry"])
    for f in glob.glob(os.path.join(tmp, "cg.*")):
        os.unlink(f)
    subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes", "-q",
                    "--callgrind-out-file=" + os.path.join(tmp, "cg.%p"), v["exe"]] + v["args"],
                   env=v["env"], cwd=v["cwd"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    total = loader = binding = 0
    kind = "glibc" if v["name"].startswith("glibc") else "qb" if v["name"].startswith("qb") else None
    for f in glob.glob(os.path.join(tmp, "cg.*")):
        r = subprocess.run(["callgrind_annotate", "--inclusive=no", "--threshold=100", f],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        for line in r.stdout.decode(errors="replace").splitlines():
            parts = line.split()
            if not parts or not parts[0].replace(",", "").isdigit():
                continue
            ir = int(parts[0].replace(",", ""))
            if "PROGRAM TOTALS" in line:
                total += ir
            elif ("/ld-linux-x86-64.so" in line or "/ld-musl-" in line or "/ld-quickbind-" in line
                  or "x86_64-linux-musl/libc.so" in line):
                loader += ir
        if kind:
            r = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", f],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            # with debugging information a function is listed once per
            # source file of its inlined parts: its own file's line (the
            # largest) holds the inclusive cost
            best = {}
            for line in r.stdout.decode(errors="replace").splitlines():
                m = ANNOTATE_LINE.match(line)
                if m and m.group(2).split(":")[-1] in BINDING_FUNCS[kind]:
                    fn = m.group(2).split(":")[-1]
                    best[fn] = max(best.get(fn, 0), int(m.group(1).replace(",", "")))
            binding += sum(best.values())
    return {"ir": total, "loader_ir": loader, "binding_ir": binding if kind else None}


def measure(out, loader, linkopt, runs, warmup, do_cg, log):
    # every run has cwd=out: the paths of its programs must not be relative
    out = os.path.abspath(out)
    stage = stage_dir()
    if not stage:
        why = ("the musl GStreamer stack is not built (make check-real-large "
               "REAL_LARGE=gst builds it into %s)" % CACHE)
        log("gst row skipped: " + why)
        return {"skipped": why}
    if not os.path.exists("/usr/bin/gst-inspect-1.0") or not os.path.exists(DEB_SCANNER):
        why = "Debian's GStreamer is not installed (scripts/deps.sh installs it)"
        log("gst row skipped: " + why)
        return {"skipped": why}
    t0 = time.time()
    trees, debdir, lnk, ncommon, nours, ntheirs, breakdown = prepare(
        out, stage, os.path.abspath(loader), os.path.abspath(linkopt), log)
    os.makedirs(os.path.join(out, "registry"))
    os.makedirs(os.path.join(out, "home"))
    res = {"plugins": ncommon, "plugins_musl": nours, "plugins_debian": ntheirs,
           "libraries": len([p for p in glob.glob(os.path.join(stage, "lib", "lib*.so*"))
                             if not os.path.islink(p)]),
           "refs": breakdown,
           "programs": {}}
    vers = {"musl": version([os.path.join(trees["musl"], "bin/gst-inspect-1.0")],
                            dict(run.BASE_ENV, LD_LIBRARY_PATH=os.path.join(trees["musl"], "lib"))),
            "glibc": version(["/usr/bin/gst-inspect-1.0"], run.BASE_ENV)}
    res["versions"] = vers
    rng = random.Random(1)
    try:
        for prog in PROGRAMS:
            vs = [variant(n, trees, debdir, out, prog) for n, _ in VARIANTS]
            # check first: each variant must run and list the same plugins
            for v in vs:
                if os.path.exists(v["registry"]) and v["cold"]:
                    os.unlink(v["registry"])
                r = subprocess.run([v["exe"]] + v["args"], env=v["env"], cwd=v["cwd"],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                v["status"] = "ok" if r.returncode == 0 else \
                    "failed: exit %d: %s" % (r.returncode, r.stderr.decode(errors="replace")[-200:])
                if prog[0].startswith("inspect"):
                    last = r.stdout.decode(errors="replace").strip().splitlines()[-1:]
                    v["summary"] = last[0] if last else ""
            live = [v for v in vs if v["status"] == "ok"]
            wall = {v["name"]: [] for v in live}
            rss = {}
            for i in range(warmup + runs):
                rng.shuffle(live)
                for v in live:
                    s, kb, rc = once(v)
                    if rc != 0:
                        v["status"] = "failed during timing: %s" % rc
                        continue
                    if i >= warmup:
                        wall[v["name"]].append(s * 1e3)
                        rss[v["name"]] = max(rss.get(v["name"], 0), kb)
            p = {}
            with tempfile.TemporaryDirectory(prefix="qbg-cg.") as tmp:
                for v in vs:
                    e = {"status": v["status"], "summary": v.get("summary")}
                    if wall.get(v["name"]):
                        e["wall_ms"] = statistics.median(wall[v["name"]])
                        e["rss_kb"] = rss[v["name"]]
                        if do_cg and v["status"] == "ok":
                            if not v["cold"]:
                                once(v)  # the registry warm for callgrind too
                            e.update(callgrind(v, tmp))
                    p[v["name"]] = e
            res["programs"][prog[0]] = p
            log("gst: %s measured" % prog[0])
    finally:
        shutil.rmtree(lnk, ignore_errors=True)
    res["seconds"] = round(time.time() - t0)
    return res


def fmt_ir(x):
    return "%.2f M" % (x / 1e6) if x is not None else "-"


def section(res):
    """Markdown lines for the report."""
    g = res.get("gst")
    if not g:
        return []
    lines = ["## GStreamer: a plugin host at scale (issue 27)", ""]
    if "skipped" in g:
        return lines + ["Not measured: %s." % g["skipped"], ""]
    lines.append("GStreamer %s built for musl (scripts/real/gst.sh: %d libraries, %d plugins) "
                 "against Debian's glibc build %s, both loading the %d plugins the two builds "
                 "have in common (Debian ships %d). Median wall ms of interleaved runs; "
                 "instructions of the whole process tree (callgrind, children traced); "
                 "loader object: instructions inside the loader's own object (for musl and "
                 "quickbind the loader is also libc); binding: inclusive instructions of the "
                 "relocation functions (quickbind qb_relocate_all + qb_relocate, glibc "
                 "_dl_relocate_object + _dl_fixup; musl's libc.so is stripped)."
                 % (g["versions"].get("musl"), g["libraries"], g["plugins_musl"],
                    g["versions"].get("glibc"), g["plugins"], g["plugins_debian"]))
    r = g.get("refs")
    if r:
        lines += ["", "linkopt over every ELF file of the stage (one run; programs as apps, "
                  "plugins as modules): " + ", ".join("%d %s" % (r[k], k) for k in REF_KINDS)
                  + " (dynamic symbols of all files; symlinked names not counted twice)."]
    for key, label, _, _ in PROGRAMS:
        p = g["programs"].get(key)
        if not p:
            continue
        lines += ["", "### " + label, "",
                  "| variant | wall ms | x glibc lazy | x musl | Ir | loader object Ir | binding Ir | RSS KiB |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|"]
        base = p.get("glibc-lazy", {}).get("wall_ms")
        musl = p.get("musl", {}).get("wall_ms")
        for n, lab in VARIANTS:
            v = p.get(n, {})
            if "wall_ms" not in v:
                lines.append("| %s | %s | | | | | | |" % (lab, v.get("status", "not run")))
                continue
            w = v["wall_ms"]
            lines.append("| %s | %.1f | %s | %s | %s | %s | %s | %d |" % (
                lab, w, "%.2f" % (w / base) if base else "-", "%.2f" % (w / musl) if musl else "-",
                fmt_ir(v.get("ir")), fmt_ir(v.get("loader_ir")), fmt_ir(v.get("binding_ir")),
                v.get("rss_kb", 0)))
        s = {n: p[n].get("summary") for n, _ in VARIANTS if p.get(n, {}).get("summary")}
        if s:
            lines += ["", "Summary lines: " + "; ".join("%s: %s" % kv for kv in s.items())]
    return lines + [""]


if __name__ == "__main__":
    import argparse
    import json
    ap = argparse.ArgumentParser(description="the GStreamer row alone")
    ap.add_argument("--out", default="build/bench/gst")
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--loader", default="build/lib/ld-quickbind-x86_64.so.1")
    ap.add_argument("--linkopt", default="build/bin/linkopt")
    a = ap.parse_args()
    run.ensure_launcher(os.path.join(os.path.dirname(os.path.abspath(a.out)), "qbb-launch"))
    r = measure(os.path.abspath(a.out), a.loader, a.linkopt, a.runs, a.warmup,
                not a.no_callgrind, lambda m: print(m, flush=True))
    with open(os.path.abspath(a.out) + ".json", "w") as f:
        json.dump(r, f, indent=1)
    print("\n".join(section({"gst": r})))
