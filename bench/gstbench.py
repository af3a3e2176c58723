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
is stripped, so its binding work alone is not measured.  What the rows of
issue 27 share (the variants, timing, callgrind, the tables) is in
bench/realapp.py.
"""

import glob
import os
import shutil
import subprocess
import tempfile
import time

import realapp
import run
from realapp import REF_KINDS, VARIANTS, elf_files, set_interp

CACHE = os.environ.get("QB_CACHE", "/var/cache/quickbind")
DEB_PLUGINS = "/usr/lib/x86_64-linux-gnu/gstreamer-1.0"
DEB_SCANNER = "/usr/lib/x86_64-linux-gnu/gstreamer1.0/gstreamer-1.0/gst-plugin-scanner"
PROGRAMS = [("inspect-cold", "gst-inspect-1.0 (registry rebuilt)", ["gst-inspect-1.0"], True),
            ("inspect-warm", "gst-inspect-1.0 (registry warm)", ["gst-inspect-1.0"], False),
            ("launch", "gst-launch-1.0 fakesrc num-buffers=1 ! fakesink",
             ["gst-launch-1.0", "-q", "fakesrc", "num-buffers=1", "!", "fakesink"], False)]


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
            breakdown = realapp.linkopt_all(linkopt, os.path.join(t, "lib"), elfs)
    log("gst: %d plugins in both builds (%d built for musl, %d in Debian's)"
        % (len(common), len(ours), len(theirs)))
    return trees, debdir, lnk, len(common), len(ours), len(theirs), breakdown


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


def for_callgrind(v):
    """The registry as the timed runs had it: removed for the cold
    program, warm for the others."""
    if v["cold"] and os.path.exists(v["registry"]):
        os.unlink(v["registry"])
    elif not v["cold"]:
        once(v)
    return v


def missing():
    """Why the row cannot be measured here, or None."""
    if not stage_dir():
        return ("the musl GStreamer stack is not built (make check-real-large "
                "REAL_LARGE=gst builds it into %s)" % CACHE)
    if not os.path.exists("/usr/bin/gst-inspect-1.0") or not os.path.exists(DEB_SCANNER):
        return "Debian's GStreamer is not installed (scripts/deps.sh installs it)"
    return None


def measure(out, loader, linkopt, runs, warmup, do_cg, log):
    # every run has cwd=out: the paths of its programs must not be relative
    out = os.path.abspath(out)
    why = missing()
    if why:
        log("gst row skipped: " + why)
        return {"skipped": why}
    stage = stage_dir()
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
    try:
        for prog in PROGRAMS:
            vs = [variant(n, trees, debdir, out, prog) for n, _ in VARIANTS]
            # check first: each variant must run and list the same plugins
            for v in vs:
                if os.path.exists(v["registry"]) and v["cold"]:
                    os.unlink(v["registry"])
                r = realapp.check(v)
                if prog[0].startswith("inspect"):
                    last = r.stdout.decode(errors="replace").strip().splitlines()[-1:]
                    v["summary"] = last[0] if last else ""
            with tempfile.TemporaryDirectory(prefix="qbg-cg.") as tmp:
                p = realapp.measure_program(vs, runs, warmup, do_cg, tmp, once=once,
                                            cg_variant=for_callgrind)
            for v in vs:
                p[v["name"]]["summary"] = v.get("summary")
            res["programs"][prog[0]] = p
            log("gst: %s measured" % prog[0])
    finally:
        shutil.rmtree(lnk, ignore_errors=True)
    res["seconds"] = round(time.time() - t0)
    return res


def section(res, key="gst"):
    """Markdown lines for the report."""
    g, lines = realapp.section_head(res, key, "GStreamer: a plugin host at scale")
    if not g:
        return lines
    lines.append("GStreamer %s built for musl (scripts/real/gst.sh: %d libraries, %d plugins) "
                 "against Debian's glibc build %s, both loading the %d plugins the two builds "
                 "have in common (Debian ships %d). Median wall ms of interleaved runs; "
                 "instructions of the whole process tree (callgrind, children traced); "
                 % (g["versions"].get("musl"), g["libraries"], g["plugins_musl"],
                    g["versions"].get("glibc"), g["plugins"], g["plugins_debian"])
                 + realapp.columns_text("; musl's libc.so is stripped"))
    r = g.get("refs")
    if r:
        lines += ["", "linkopt over every ELF file of the stage (one run; programs as apps, "
                  "plugins as modules): " + ", ".join("%d %s" % (r[k], k) for k in REF_KINDS)
                  + " (dynamic symbols of all files; symlinked names not counted twice)."]
    for key, label, _, _ in PROGRAMS:
        p = g["programs"].get(key)
        if not p:
            continue
        lines += ["", "### " + label, ""] + realapp.program_table(p)
        s = {n: p[n].get("summary") for n, _ in VARIANTS if p.get(n, {}).get("summary")}
        if s:
            lines += ["", "Summary lines: " + "; ".join("%s: %s" % kv for kv in s.items())]
    return lines + [""]


if __name__ == "__main__":
    realapp.main("gst", "GStreamer", measure, section)
