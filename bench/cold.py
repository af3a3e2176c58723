#!/usr/bin/env python3
"""Cold start-up rows of the benchmark: every variant run with its files out
of the page cache, as after boot, after an update, or in a container image
just pulled.

  cold.py [--evict auto|drop|files] [--runs 11] [--loader L] [-o OUT.json]
          WORKLOAD_DIR...

(bench.py runs it on its workloads: --cold-only, --no-cold, --cold-runs,
--evict; this command line measures office workloads already built by
gen.py, for a quick look.)

Before each run the files are evicted:
  drop    sync; echo 3 > /proc/sys/vm/drop_caches (the whole page cache;
          root only)
  files   posix_fadvise(POSIX_FADV_DONTNEED) on every file of every
          measured variant's closure, nothing else (what the tests use:
          they run beside other work)
  auto    drop as root, else files
Pages some process has mapped stay in the page cache whatever the method
(glibc's libc.so.6, which this interpreter maps, among them): each run
records the closure's resident bytes just before and just after it.

The closure of a variant, computed once before its timed runs: the
program, its loader (PT_INTERP), every library the loader's own --list
mode names under the run's environment (glibc's, musl's and quickbind's
ld.so all have one), and for a plugin host the plugins and files it may
open.  Resident bytes come from mincore(2) on a read-only mapping of each
file (mapping reads nothing).

Wall time is exec to exit through the static launcher (bench/launch.c),
as for the warm rows; runs are interleaved, each round in a shuffled order.
"""

import argparse
import ctypes
import json
import mmap
import os
import random
import re
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402

DROP_CACHES = "/proc/sys/vm/drop_caches"
EVICT_MODES = ("auto", "drop", "files")
METHOD_TEXT = {
    "drop": "the whole page cache, directory entries and inodes dropped before each run "
            "(`sync; echo 3 > /proc/sys/vm/drop_caches`, as root)",
    "files": "every file of every measured variant's closure evicted before each run "
             "(`posix_fadvise(POSIX_FADV_DONTNEED)`; the rest of the page cache left "
             "alone)",
}
# The prefetch switch of the loader: the same run without its early reads.
NOPF_ENV = {"LD_NOPREFETCH": "1"}
NOPF = "-nopf"
NOPF_LABEL = ", LD_NOPREFETCH=1"
# The optimized program again, its closure record asking for the pages one
# warm run of it read (LD_RECORD_PAGES, linkopt --pages) instead of the
# libraries' segments.
PAGES = "-pages"
PAGES_LABEL = ", recorded pages"

# The office workload's cold variants, in the order of the table; the
# floor's follow under report.FLOOR_ROWS' loaders.
OFFICE_VARIANTS = ["glibc-lazy", "glibc-now", "musl", "qb-none", "qb-none" + NOPF,
                   "qb-all", "qb-all" + NOPF]
FLOOR_VARIANTS = ["glibc-now", "musl", "qb-none", "qb-all"]


def add_args(ap):
    ap.add_argument("--no-cold", action="store_true",
                    help="skip the cold start-up rows")
    ap.add_argument("--cold-only", action="store_true",
                    help="only the cold start-up rows (no warm rows, sweep or i386 column)")
    ap.add_argument("--cold-runs", type=int,
                    help="cold runs per variant (default 11; 5 with --quick)")
    ap.add_argument("--evict", choices=EVICT_MODES, default="auto",
                    help="how files are made cold: drop the whole page cache (root), "
                    "evict only the closures' files, or auto: drop as root, else files "
                    "(default: %(default)s)")


def defaults(a, error):
    """Per mode, like bench.py's own; error(msg) rejects the options."""
    if a.cold_only and a.no_cold:
        error("--cold-only and --no-cold exclude each other")
    if a.cold_runs is None:
        a.cold_runs = 5 if a.quick else 11
    a.cold_runs = max(1, a.cold_runs)
    if a.cold_only:
        return
    # the demo must stay short; the sweep and the i386 column are warm only
    for flag, why in ((a.demo, "not part of the demo"), (a.sweep_only, "--sweep-only"),
                      (a.i386_only, "--i386-only")):
        if flag and not a.no_cold:
            a.no_cold = why


# ----------------------------------------------------------- page cache --

_libc = None


def libc():
    global _libc
    if _libc is None:
        c = ctypes.CDLL(None, use_errno=True)
        c.mmap.restype = ctypes.c_void_p
        c.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,
                           ctypes.c_int, ctypes.c_long]
        c.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        c.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_void_p]
        _libc = c
    return _libc


def resident(path):
    """Bytes of path in the page cache (mincore), 0 for a file that is gone."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return 0
    try:
        size = os.fstat(fd).st_size
        if size == 0:
            return 0
        c = libc()
        addr = c.mmap(None, size, mmap.PROT_READ, mmap.MAP_SHARED, fd, 0)
        if addr is None or addr == ctypes.c_void_p(-1).value:
            e = ctypes.get_errno()
            raise OSError(e, "mmap %s: %s" % (path, os.strerror(e)))
        try:
            ps = mmap.PAGESIZE
            n = (size + ps - 1) // ps
            vec = (ctypes.c_ubyte * n)()
            if c.mincore(addr, size, vec) != 0:
                e = ctypes.get_errno()
                raise OSError(e, "mincore %s: %s" % (path, os.strerror(e)))
        finally:
            c.munmap(addr, size)
        # the last page holds only the file's tail
        return sum(min(ps, size - i * ps) for i in range(n) if vec[i] & 1)
    finally:
        os.close(fd)


def evict_files(paths):
    for p in paths:
        try:
            fd = os.open(p, os.O_RDONLY)
        except OSError:
            continue
        try:
            # dirty pages are not dropped: a workload just built may have some
            os.fdatasync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def drop_caches():
    os.sync()
    with open(DROP_CACHES, "w") as f:
        f.write("3\n")


def choose_method(requested):
    """(method, note): the eviction method to use, and why when auto fell
    back to files; raises RuntimeError when drop cannot be done."""
    if requested == "files":
        return "files", None
    if os.geteuid() != 0:
        if requested == "drop":
            raise RuntimeError("--evict drop needs root")
        return "files", "not root"
    try:
        drop_caches()
    except OSError as e:
        if requested == "drop":
            raise RuntimeError("cannot drop the page cache: %s" % e)
        return "files", "%s not writable (%s)" % (DROP_CACHES, e.strerror)
    return "drop", None


def evict(method, paths):
    if method == "drop":
        drop_caches()
    else:
        evict_files(paths)


def read_ahead_kb(path):
    """The readahead window of the block device holding path, or None."""
    try:
        st = os.stat(path)
        d = os.path.realpath("/sys/dev/block/%d:%d" % (os.major(st.st_dev), os.minor(st.st_dev)))
        for q in (d, os.path.dirname(d)):
            f = os.path.join(q, "queue", "read_ahead_kb")
            if os.path.exists(f):
                with open(f) as fh:
                    return int(fh.read())
    except (OSError, ValueError):
        pass
    return None


# -------------------------------------------------------------- closure --

class ClosureError(Exception):
    pass


def interp_of(path):
    """PT_INTERP of an ELF file, or None (static, or not ELF)."""
    try:
        with open(path, "rb") as f:
            h = f.read(64)
            if h[:4] != b"\x7fELF":
                return None
            if h[4] == 2:
                phoff, = struct.unpack_from("<Q", h, 32)
                phentsize, phnum = struct.unpack_from("<HH", h, 54)
                fmt, off_at, size_at = "<Q", 8, 32
            else:
                phoff, = struct.unpack_from("<I", h, 28)
                phentsize, phnum = struct.unpack_from("<HH", h, 42)
                fmt, off_at, size_at = "<I", 4, 16
            for i in range(phnum):
                f.seek(phoff + i * phentsize)
                ph = f.read(phentsize)
                if struct.unpack_from("<I", ph, 0)[0] == 3:
                    off, = struct.unpack_from(fmt, ph, off_at)
                    size, = struct.unpack_from(fmt, ph, size_at)
                    f.seek(off)
                    return f.read(size).split(b"\0")[0].decode()
    except (OSError, struct.error):
        return None
    return None


def unloaded_bytes(path):
    """Bytes of the sections of an ELF file that no segment loads (debugging
    information, the full symbol table): readahead may bring them in all
    the same. 0 for what cannot be read."""
    try:
        with open(path, "rb") as f:
            h = f.read(64)
            if h[:4] != b"\x7fELF":
                return 0
            if h[4] == 2:
                shoff, = struct.unpack_from("<Q", h, 40)
                shentsize, shnum = struct.unpack_from("<HH", h, 58)
                fmt, flags_at, size_at = "<Q", 8, 32
            else:
                shoff, = struct.unpack_from("<I", h, 32)
                shentsize, shnum = struct.unpack_from("<HH", h, 46)
                fmt, flags_at, size_at = "<I", 8, 20
            total = 0
            for i in range(shnum):
                f.seek(shoff + i * shentsize)
                sh = f.read(shentsize)
                typ, = struct.unpack_from("<I", sh, 4)
                flags, = struct.unpack_from(fmt, sh, flags_at)
                size, = struct.unpack_from(fmt, sh, size_at)
                # SHT_NOBITS takes no room in the file; SHF_ALLOC is loaded
                if typ not in (0, 8) and not flags & 2:
                    total += size
            return total
    except (OSError, struct.error):
        return 0


def in_root(root, p, depth=0):
    """The host path of p inside root, its symbolic links resolved as
    inside the chroot (an absolute link target stays in the image)."""
    if root is None:
        return os.path.realpath(p)
    if depth > 40:
        return root + p
    parts = [x for x in p.split("/") if x and x != "."]
    cur = ""
    for i, part in enumerate(parts):
        if part == "..":
            cur = os.path.dirname(cur) if cur else ""
            continue
        nxt = cur + "/" + part
        full = root + nxt
        if os.path.islink(full):
            t = os.readlink(full)
            base = t if t.startswith("/") else os.path.normpath((cur or "/") + "/" + t)
            rest = "/".join(parts[i + 1:])
            return in_root(root, base + ("/" + rest if rest else ""), depth + 1)
        cur = nxt
    return root + (cur or "/")


LIST_ADDR = re.compile(r"\s*\(0x[0-9a-fA-F]+\)\s*$")


def listed(interp, target, env, cwd, root=None):
    """The paths `interp --list target` names (inside root when chrooted)."""
    import image
    cmd, enter = image.entered(root, cwd, [interp, "--list", target]) if root else \
        ([interp, "--list", target], None)
    try:
        r = subprocess.run(cmd, env=env, cwd=None if root else cwd,
                           preexec_fn=enter, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ClosureError("%s --list %s: %s" % (interp, target, e))
    out = r.stdout.decode(errors="replace")
    if r.returncode != 0 or "not found" in out:
        why = [line.strip() for line in (out + r.stderr.decode(errors="replace")).splitlines()
               if "not found" in line or "rror" in line]
        raise ClosureError("%s --list %s: exit %d%s" % (
            interp, target, r.returncode, ": " + why[0][:200] if why else ""))
    paths = []
    for line in out.splitlines():
        p = line.split("=>", 1)[1] if "=>" in line else line
        p = LIST_ADDR.sub("", p).strip()
        # the vDSO and "statically linked" have no file
        if "/" not in p:
            continue
        if not p.startswith("/") and not root:
            p = os.path.join(cwd, p)
        paths.append(p)
    return paths


def closure(v, extra_elfs=(), extra_files=()):
    """Host paths of every file of v's start-up: the program, its loader,
    what the loader lists for it and for each of extra_elfs (plugins: a
    failing listing leaves just the file), and extra_files."""
    root = v.get("root")
    host = in_root(root, v["exe"]) if root else os.path.abspath(v["exe"])
    interp = interp_of(host)
    names = [v["exe"]]
    if interp:
        names.append(interp)
        v["loader"] = in_root(root, interp) if root else os.path.realpath(interp)
        names += listed(interp, v["exe"], v["env"], v["cwd"], root)
        for e in extra_elfs:
            names.append(e)
            try:
                names += listed(interp, e, v["env"], v["cwd"], root)
            except ClosureError:
                pass
    names += list(extra_files)
    out = []
    for n in names:
        p = in_root(root, n) if root else os.path.realpath(n)
        if p not in out and os.path.isfile(p):
            out.append(p)
    return out


# -------------------------------------------------------------- timing --

def spawn(v):
    """One timed run (wall seconds, peak RSS KiB, exit status); chrooted
    into v["root"] when set, through the launcher the image holds."""
    if not v.get("root"):
        return run.spawn_timed(v)

    import image
    cmd, enter = image.entered(v["root"], v["cwd"], ["/qbb-launch", v["exe"]] + v["args"])
    r = subprocess.run(cmd, env=v["env"], preexec_fn=enter,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        return None, None, "launch failed: " + r.stderr.decode(errors="replace").strip()
    ns, rss, rc = r.stdout.split()[:3]
    return int(ns) / 1e9, int(rss), int(rc)


def nopf(v):
    """The prefetch-off twin of a quickbind variant."""
    return dict(v, name=v["name"] + NOPF, label=v["label"] + NOPF_LABEL,
                env=dict(v["env"], **NOPF_ENV))


def with_nopf(vs):
    """vs with each quickbind variant followed by its prefetch-off twin."""
    out = []
    for v in vs:
        out.append(v)
        if v["name"].startswith("qb-"):
            out.append(nopf(v))
    return out


def pages_twin(v, linkopt, log):
    """v (an optimized program) with a copy of its program beside it whose
    record asks for the pages one run of v read: the run records them
    (LD_RECORD_PAGES), linkopt --pages -o writes the copy, searching as
    v's run does (its LD_LIBRARY_PATH); v's libraries are left as they
    are (linkopt would not change them)."""
    t = dict(v, name=v["name"] + PAGES, label=v["label"] + PAGES_LABEL, env=dict(v["env"]))
    exe = v["exe"]
    rec, copy = exe + ".pages", exe + PAGES
    for p in (rec, copy):
        if os.path.exists(p):
            os.unlink(p)
    r = subprocess.run([exe] + v.get("args", []), env=dict(v["env"], LD_RECORD_PAGES=rec), cwd=v["cwd"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if r.returncode != 0 or not os.path.exists(rec):
        t["status"] = "failed: the recording run: exit %d %s" % (r.returncode, r.stderr.decode(errors="replace")[-200:])
    else:
        r = subprocess.run([linkopt, "--pages", rec, "-o", copy, exe], env=v["env"], cwd=v["cwd"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            t["status"] = "failed: linkopt --pages: %s" % r.stdout.decode(errors="replace").strip()[-300:]
        else:
            t["exe"] = copy
    if t.get("status", "ok") != "ok":
        log("cold: %s: %s" % (t["name"], t["status"]))
    return t


def with_pages(vs, linkopt, log):
    """vs with the pages twin of each ok all-tables variant after it and
    its prefetch-off twin; the twin is checked by one run."""
    out = []
    for v in vs:
        out.append(v)
        if v["name"] == "qb-all" + NOPF and linkopt:
            base = next(b for b in vs if b["name"] == "qb-all")
            if base.get("status", "ok") == "ok":
                out += check_runs([pages_twin(base, linkopt, log)])
    return out


def imedian(xs):
    return int(statistics.median(xs)) if xs else None


def measure_set(vs, runs, method, log, seed=0):
    """Cold runs of the variants vs (each with "closure" set; those with a
    "status" other than ok are only reported): {name: entry}, every round
    running each variant once in a shuffled order."""
    rng = random.Random(seed)
    live = [v for v in vs if v.get("status", "ok") == "ok"]
    everything = sorted({f for v in live for f in v["closure"]})
    wall = {v["name"]: [] for v in live}
    rss = {v["name"]: [] for v in live}
    before = {v["name"]: [] for v in live}
    after = {v["name"]: [] for v in live}
    # per file: [resident just before, just after] of every run
    per_file = {v["name"]: {f: ([], []) for f in v["closure"]} for v in live}
    bad = {}
    for _ in range(runs):
        order = list(live)
        rng.shuffle(order)
        for v in order:
            n = v["name"]
            if n in bad:
                continue
            evict(method, everything)
            pre = {f: resident(f) for f in v["closure"]}
            if method == "drop":
                # mincore's mappings brought the files' inodes and directory
                # entries back; a second drop removes them again and leaves
                # the same pages (those no drop can remove)
                drop_caches()
            t, kb, rc = spawn(v)
            if rc != 0:
                bad[n] = rc if isinstance(rc, str) else "exit %d in a cold run" % rc
                continue
            got = {f: resident(f) for f in v["closure"]}
            wall[n].append(t * 1e3)
            rss[n].append(kb)
            before[n].append(sum(pre.values()))
            after[n].append(sum(got.values()))
            for f, x in got.items():
                per_file[n][f][0].append(pre[f])
                per_file[n][f][1].append(x)
    out = {}
    for v in vs:
        n = v["name"]
        e = {"label": v["label"]}
        if v.get("status", "ok") != "ok":
            e["status"] = v["status"]
        elif n in bad:
            e["status"] = "failed: " + bad[n]
        else:
            s = sorted(wall[n])
            q = statistics.quantiles(s, n=4) if len(s) >= 2 else [s[0]] * 3
            sizes = {f: os.path.getsize(f) for f in v["closure"]}
            e.update(status="ok", runs=len(s),
                     wall_ms={"median": statistics.median(s), "min": s[0], "max": s[-1],
                              "q1": q[0], "q3": q[2]},
                     rss_kb=imedian(rss[n]),
                     resident_bytes=imedian(after[n]),
                     resident_min=min(after[n]), resident_max=max(after[n]),
                     before_bytes=imedian(before[n]),
                     brought_bytes=imedian([a - b for a, b in zip(after[n], before[n])]),
                     closure_files=len(v["closure"]),
                     closure_bytes=sum(sizes.values()),
                     loader=v.get("loader"),
                     files={f: [sizes[f], imedian(per_file[n][f][0]), imedian(per_file[n][f][1])]
                            for f in v["closure"]})
        out[n] = e
    return out


def with_closures(vs, log, extras=None):
    """Sets each ok variant's closure (extras(v): (elfs, files) to add);
    one that cannot be listed is failed with the reason."""
    for v in vs:
        if v.get("status", "ok") != "ok":
            continue
        try:
            elfs, files = extras(v) if extras else ((), ())
            v["closure"] = closure(v, elfs, files)
        except ClosureError as e:
            v["status"] = "failed: closure: %s" % e
            log("cold: %s: %s" % (v["name"], v["status"]))
    return vs


def check_runs(vs):
    """One untimed, warm run of each variant: a variant that does not run
    is failed with the reason, never timed."""
    for v in vs:
        if v.get("status", "ok") != "ok":
            continue
        t, kb, rc = spawn(v)
        if rc != 0:
            v["status"] = "failed: %s" % (rc if isinstance(rc, str) else "exit %d" % rc)
    return vs


def entry(key, title, variants, order):
    loaders = {}
    for v in variants.values():
        p = v.get("loader")
        if p and p not in loaders and os.path.exists(p):
            loaders[p] = [os.path.getsize(p), unloaded_bytes(p)]
    return {"key": key, "title": title, "order": order, "variants": variants,
            "loaders": loaders}


# ----------------------------------------------------------- workloads --

def office_vs(wdir, loader, names, cwd, log, prefix="", label_prefix=""):
    """The checked variants of a generated workload (run.variant_cmds,
    run.checked_variants: the output of each must equal musl's), named
    prefix + name."""
    with open(os.path.join(wdir, "workload.json")) as f:
        meta = json.load(f)
    base = [n[:-len(NOPF)] if n.endswith(NOPF) else n for n in names]
    cmds = {v["name"]: v for v in run.variant_cmds(wdir, meta, only=set(base), cwd=cwd)}
    vs = []
    for n, b in zip(names, base):
        v = dict(cmds[b], env=dict(cmds[b]["env"]))
        if n != b:
            v = nopf(v)
        vs.append(v)
    res, live = run.checked_variants(wdir, meta, loader, log, vs)
    ok = {v["name"] for v in live}
    out = []
    for v in vs:
        st = "ok" if v["name"] in ok else res["variants"][v["name"]]["status"]
        out.append(dict(v, name=prefix + v["name"], label=label_prefix + v["label"], status=st))
    return out, meta


def office_entry(key, title, wdir, fdir, loader, runs, method, log, names=OFFICE_VARIANTS,
                 fnames=FLOOR_VARIANTS, linkopt=None):
    """A generated workload (and its floor, in the same interleaved rounds)."""
    with tempfile.TemporaryDirectory(prefix="qbb-cold.") as scratch:
        vs, _ = office_vs(wdir, loader, names, scratch, log)
        vs = with_pages(vs, linkopt, log)
        if fdir:
            fvs, _ = office_vs(fdir, loader, fnames, scratch, log, "floor:", "floor: ")
            vs += fvs
        with_closures(vs, log)
        log("cold: %s: measuring %s (%d runs, %s)" % (
            key, ", ".join(v["name"] for v in vs if v["status"] == "ok"), runs, method))
        res = measure_set(vs, runs, method, log)
    return entry(key, title, res, [v["name"] for v in vs])


def program_entry(key, title, vs, runs, method, log, extras=None, linkopt=None):
    """Programs of an application tree (each variant a dict like
    realapp's): checked by one run, then measured cold."""
    check_runs(vs)
    vs = with_pages(vs, linkopt, log)
    with_closures(vs, log, extras)
    log("cold: %s: measuring %s" % (key, ", ".join(v["name"] for v in vs
                                                    if v.get("status", "ok") == "ok")))
    return entry(key, title, measure_set(vs, runs, method, log), [v["name"] for v in vs])


def cxx_entries(a, loader, method, log, linkopt=None):
    import cxxbench
    if a.no_cxx:
        return [{"key": "C++ office", "skipped": "--no-cxx"}]
    wdir, meta = cxxbench.build(a, log)
    if wdir is None:
        return [{"key": "C++ office", "skipped": meta}]
    names = with_nopf_names(cxxbench.VARIANTS)
    return [office_entry("C++ " + os.path.basename(wdir), cxxbench.describe(
        {"params": meta["params"]}), wdir, None, loader, a.cold_runs, method, log, names,
        linkopt=linkopt)]


def with_nopf_names(names):
    out = []
    for n in names:
        out.append(n)
        if n.startswith("qb-"):
            out.append(n + NOPF)
    return out


def realapp_vs(make):
    """realapp's variants, the quickbind ones with their prefetch-off twins:
    make(name) builds one (a dict with name, exe, args, env, cwd)."""
    import realapp
    vs = []
    for n, lab in realapp.VARIANTS:
        v = make(n)
        v.update(name=n, label=lab)
        vs.append(v)
    return with_nopf(vs)


def icu_entries(a, out, loader, linkopt, method, log):
    import icubench
    if a.no_icu:
        return [{"key": "ICU", "skipped": "--no-icu"}]
    why = icubench.missing()
    if why:
        return [{"key": "ICU", "skipped": why}]
    src = icubench.source_dir()
    trees, lnk, _ = icubench.prepare(out, src, loader, linkopt, None)
    res = []
    try:
        for prog in icubench.PROGRAMS:
            if prog[0] not in ("version", "icuinfo"):
                continue
            vs = realapp_vs(lambda n: icubench.variant(n, trees, out, prog))
            res.append(program_entry("ICU: " + prog[1], "ICU's `%s`" % prog[1], vs,
                                     a.cold_runs, method, log, linkopt=linkopt))
    finally:
        shutil.rmtree(lnk, ignore_errors=True)
    return res


def abseil_entries(a, out, loader, linkopt, method, log, arch="x86_64"):
    import abseilbench
    key = "abseil" + ("" if arch == "x86_64" else " (%s)" % arch)
    if getattr(a, "no_abseil", False):
        return [{"key": key, "skipped": "--no-abseil"}]
    why = abseilbench.missing(arch)
    if why:
        return [{"key": key, "skipped": why}]
    try:
        trees, lnk, _ = abseilbench.prepare(out, abseilbench.tree_dir(arch), loader, linkopt, arch)
    except RuntimeError as e:
        return [{"key": key, "skipped": str(e)}]
    res = []
    try:
        for prog in abseilbench.PROGRAMS:
            vs = realapp_vs(lambda n: abseilbench.variant(n, trees, out, prog))
            res.append(program_entry("%s: %s" % (key, prog[1]), "abseil's `%s`%s" % (
                prog[2][0], "" if arch == "x86_64" else ", " + arch), vs, a.cold_runs, method, log,
                linkopt=linkopt))
    finally:
        shutil.rmtree(lnk, ignore_errors=True)
    return res


def gst_entries(a, out, loader, linkopt, method, log):
    import gstbench
    if a.no_gst:
        return [{"key": "GStreamer", "skipped": "--no-gst"}]
    why = gstbench.missing()
    if why:
        return [{"key": "GStreamer", "skipped": why}]
    stage = gstbench.stage_dir()
    trees, debdir, lnk = gstbench.prepare(out, stage, loader, linkopt, log)[:3]
    os.makedirs(os.path.join(out, "registry"), exist_ok=True)
    os.makedirs(os.path.join(out, "home"), exist_ok=True)

    def extras(v):
        # every plugin the registry may name, and what each needs: a plugin
        # the run does not open adds nothing to the resident bytes
        env = v["env"]
        pdir = env["GST_PLUGIN_SYSTEM_PATH_1_0"]
        plugins = sorted(os.path.join(pdir, p) for p in os.listdir(pdir) if p.endswith(".so"))
        return plugins + [env["GST_PLUGIN_SCANNER_1_0"]], [v["registry"]]
    res = []
    try:
        for prog in gstbench.PROGRAMS:
            if prog[3]:
                continue
            vs = realapp_vs(lambda n: gstbench.variant(n, trees, debdir, out, prog))
            res.append(program_entry("GStreamer: " + prog[1], "GStreamer's `%s`" % prog[1], vs,
                                     a.cold_runs, method, log, extras, linkopt))
    finally:
        shutil.rmtree(lnk, ignore_errors=True)
    return res


def image_entries(a, out, loader, linkopt, method, log):
    import image
    if a.no_image:
        return [{"key": "image", "skipped": "--no-image"}]
    why = image.missing()
    if why:
        return [{"key": "image", "skipped": why}]
    roots = image.assemble(out, loader, linkopt, log)
    res = []
    try:
        for root in roots.values():
            shutil.rmtree(root + image.SCRATCH, ignore_errors=True)
            os.mkdir(root + image.SCRATCH)
        for label, argv in image.PROGRAMS:
            vs = with_nopf([{"name": n, "label": lab, "root": roots[n], "exe": argv[0],
                             "args": argv[1:], "env": dict(image.ENV), "cwd": image.SCRATCH}
                            for n, lab in image.ROOTS])
            res.append(program_entry("image: " + label, "The musl image's `%s`" % label, vs,
                                     a.cold_runs, method, log))
    finally:
        for root in roots.values():
            shutil.rmtree(root + image.SCRATCH, ignore_errors=True)
    return res


def measure(a, log, main_dir, floor_dir, key, describe):
    """bench.py's cold part: the main office workload (and its floor), the
    C++ workload, ICU, GStreamer and the image, each skipped with its
    reason when not built or turned off."""
    try:
        method, note = choose_method(a.evict)
    except RuntimeError as e:
        log("cold rows skipped: %s" % e)
        return {"skipped": str(e)}
    loader = os.path.abspath(a.loader)
    linkopt = os.path.abspath(a.linkopt)
    cold_out = os.path.join(os.path.abspath(a.out), "cold")
    res = {"method": method, "method_note": note, "runs": a.cold_runs,
           "read_ahead_kb": read_ahead_kb(main_dir), "main": key, "workloads": []}
    log("cold: %s%s" % (method, " (%s)" % note if note else ""))
    res["workloads"].append(office_entry(key, describe, main_dir, floor_dir, loader,
                                         a.cold_runs, method, log, linkopt=linkopt))
    res["workloads"] += cxx_entries(a, loader, method, log, linkopt)
    res["workloads"] += icu_entries(a, os.path.join(cold_out, "icu"), loader, linkopt,
                                    method, log)
    res["workloads"] += abseil_entries(a, os.path.join(cold_out, "abseil"), loader, linkopt,
                                       method, log)
    if not getattr(a, "no_i386", False):
        res["workloads"] += abseil_entries(a, os.path.join(cold_out, "abseil-i386"),
                                           os.path.abspath(a.i386_loader), linkopt, method, log,
                                           "i386")
    res["workloads"] += gst_entries(a, os.path.join(cold_out, "gst"), loader, linkopt,
                                    method, log)
    res["workloads"] += image_entries(a, os.path.join(cold_out, "image"), loader, linkopt,
                                      method, log)
    return res


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("workloads", nargs="+")
    ap.add_argument("-o", "--out")
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--evict", choices=EVICT_MODES, default="auto")
    ap.add_argument("--loader", default="build/lib/ld-quickbind-x86_64.so.1")
    ap.add_argument("--linkopt", default="build/bin/linkopt",
                    help="for the all-tables program with its recorded pages ('' leaves it out)")
    ap.add_argument("--launcher", default=run.LAUNCHER)
    ap.add_argument("--no-floor", action="store_true",
                    help="do not look for WORKLOAD_DIR-floor beside each workload")
    a = ap.parse_args(argv)
    run.ensure_launcher(a.launcher)
    method, note = choose_method(a.evict)
    log = lambda m: print(m, file=sys.stderr, flush=True)  # noqa: E731
    import report
    res = {"method": method, "method_note": note, "runs": a.runs, "workloads": []}
    for w in a.workloads:
        w = os.path.abspath(w)
        fdir = None if a.no_floor else w.rstrip("/") + "-floor"
        if fdir and not os.path.exists(os.path.join(fdir, "workload.json")):
            fdir = None
        with open(os.path.join(w, "workload.json")) as f:
            title = report.describe(json.load(f))
        res["workloads"].append(office_entry(os.path.basename(w), title, w, fdir,
                                             os.path.abspath(a.loader), a.runs, method, log,
                                             linkopt=os.path.abspath(a.linkopt) if a.linkopt else None))
    res["read_ahead_kb"] = read_ahead_kb(a.workloads[0])
    res["main"] = res["workloads"][0]["key"]
    if a.out:
        with open(a.out, "w") as f:
            json.dump(res, f, indent=1)
    print("\n".join(report.cold_section({"cold": res}, None)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
