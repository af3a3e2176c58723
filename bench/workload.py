"""What the workload generators (gen.py, cxxgen.py) share: writing sources,
the linkopt-optimized copy OUT/musl-opt, and OUT/workload.json, which lets
an unchanged workload be reused (only re-optimized when linkopt changed).
"""

import json
import os
import resource
import shutil
import subprocess
import time


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def children_cpu():
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def linkopt_copy(out, linkopt, args, cwd_opt=False, timing=None):
    """Copy OUT/musl to OUT/musl-opt and run linkopt on the copy with the
    arguments args(OUT/musl-opt) returns, in that directory when cwd_opt.
    Returns (status, output): status "ok" or why it failed, output what
    linkopt printed on stdout and stderr (None when it did not run).
    timing (a dict) receives linkopt's CPU seconds (user + system, from
    the kernel's accounting of the waited-for child), wall seconds and
    the number of files it was given."""
    opt = os.path.join(out, "musl-opt")
    shutil.rmtree(opt, ignore_errors=True)
    if not linkopt or not os.access(linkopt, os.X_OK):
        return "linkopt not built", None
    shutil.copytree(os.path.join(out, "musl"), opt, symlinks=True)
    files = args(opt)
    argv = [os.path.abspath(linkopt) if cwd_opt else linkopt] + files
    try:
        cpu0, t0 = children_cpu(), time.time()
        r = subprocess.run(argv, cwd=opt if cwd_opt else None, stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=600)
        if timing is not None:
            timing.update(cpu_s=round(children_cpu() - cpu0, 3), wall_s=round(time.time() - t0, 3),
                          files=len([f for f in files if not f.startswith("-")]))
    except (OSError, subprocess.TimeoutExpired) as e:
        return "linkopt: %s" % e, None
    text = r.stdout.decode(errors="replace")
    if r.returncode != 0:
        lines = text.strip().splitlines()
        return "linkopt exit %d: %s" % (r.returncode, lines[-1] if lines else ""), text
    return "ok", text


def linkopt_mtime(linkopt):
    return os.path.getmtime(linkopt) if os.path.exists(linkopt) else 0


def reuse(a, params, reoptimize):
    """The recorded description of OUT when it was built from the same
    params (and --force was not given), re-optimized first by
    reoptimize(meta) when linkopt changed since; else None."""
    meta_path = os.path.join(a.out, "workload.json")
    mtime = linkopt_mtime(a.linkopt)
    if a.force or not os.path.exists(meta_path):
        return None
    with open(meta_path) as f:
        meta = json.load(f)
    if meta.get("params") != params:
        return None
    if meta.get("linkopt_mtime") != mtime:
        reoptimize(meta)
        meta["linkopt_mtime"] = mtime
        save(a.out, meta)
    return meta


def save(out, meta):
    with open(os.path.join(out, "workload.json"), "w") as f:
        json.dump(meta, f, indent=1)


def finish(a, meta, mtime):
    """Records mtime (linkopt's, when the build started), drops the object
    files and writes OUT/workload.json."""
    meta["linkopt_mtime"] = mtime
    for d in ("obj-glibc", "obj-musl"):
        shutil.rmtree(os.path.join(a.out, d), ignore_errors=True)
    save(a.out, meta)
    return meta
