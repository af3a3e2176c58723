#!/usr/bin/env python3
"""The image row of the benchmark: start-up of the musl image's programs
(scripts/image/: busybox, Lua, zlib's example) under musl's loader, under
quickbind and under quickbind with tables (the image after linkopt --root).

Wall time: median of interleaved runs of the static launcher inside the
image (chroot, so every program finds its loader at
/lib/ld-musl-x86_64.so.1 exactly as in a container): as root, where the
image has /dev/null, a chroot of its own; otherwise through a user and
mount namespace (scripts/image/chroot.sh), where the kernel allows one.
The launcher times the program it starts, so neither way of entering
the image is measured.
Instructions: one callgrind run of the image's own loader invoked with the
image's library directories, outside the chroot (valgrind is not in the
image).  Every run has a scratch working directory (zlib's example writes
foo.gz into it): SCRATCH inside the image for the chrooted runs, a
temporary directory for the callgrind runs.
"""

import os
import random
import shutil
import stat
import statistics
import subprocess
import tempfile

import run

ROOTS = [("musl", "musl ld.so"), ("qb-none", "quickbind, no tables"),
         ("qb-all", "quickbind, all tables (linkopt --root)")]
PROGRAMS = [("busybox true", ["/bin/busybox", "true"]),
            ("lua -e ''", ["/usr/bin/lua", "-e", ""]),
            ("zexample", ["/usr/bin/zexample"])]
ENV = {"PATH": "/bin:/usr/bin", "LC_ALL": "C"}
# the working directory of the chrooted runs, inside each image
SCRATCH = "/qbb-scratch"


TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def userns():
    """True when this user can be root of a user namespace of its own."""
    try:
        return subprocess.run(["unshare", "--user", "--map-root-user", "--mount", "true"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0
    except OSError:
        return False


def entered(root, cwd, argv):
    """(argv, preexec_fn) that run argv (paths inside root) chrooted into
    root, in cwd (inside root).  Root outside a user namespace, whose
    images hold /dev/null (the launcher opens it), chroots itself; anyone
    else enters through scripts/image/chroot.sh, which gives the image the
    host's /dev/null in a user and mount namespace of its own."""
    try:
        dev_null = stat.S_ISCHR(os.lstat(root + "/dev/null").st_mode)
    except OSError:
        dev_null = False
    if os.geteuid() == 0 and dev_null:
        def enter():
            os.chroot(root)
            os.chdir(cwd)
        return argv, enter
    return [os.path.join(TOP, "scripts/image/chroot.sh"), "-w", cwd, root] + argv, None


def missing():
    """Why the image row cannot be measured here, or None."""
    if os.geteuid() != 0 and not userns():
        return "needs root or a user namespace (chroot into the image; unshare -rm fails here)"
    for tool in ("patchelf",):
        if not shutil.which(tool):
            return "%s not found (scripts/deps.sh installs it)" % tool
    return None


def assemble(out, loader, linkopt, log):
    roots = {}
    for name, ldso in (("musl", "/lib/ld-musl-x86_64.so.1"), ("qb-none", loader)):
        root = os.path.join(out, name)
        subprocess.run([os.path.join(TOP, "scripts/image/assemble.sh"), ldso, root],
                       check=True, stdout=subprocess.DEVNULL)
        roots[name] = root
    opt = os.path.join(out, "qb-all")
    shutil.rmtree(opt, ignore_errors=True)
    # (a device node the image holds is skipped where none can be made)
    subprocess.run([os.path.join(TOP, "scripts/image/copy.sh"), roots["qb-none"], opt],
                   check=True)
    r = subprocess.run([linkopt, "--root", opt], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise RuntimeError("linkopt --root: " + r.stderr.decode(errors="replace")[-300:])
    roots["qb-all"] = opt
    for root in roots.values():
        shutil.copy(run.LAUNCHER, os.path.join(root, "qbb-launch"))
    log("image: assembled %s" % ", ".join(sorted(roots)))
    return roots


def timed(root, argv):
    cmd, enter = entered(root, SCRATCH, ["/qbb-launch"] + argv)
    r = subprocess.run(cmd, env=ENV, preexec_fn=enter,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if r.returncode != 0:
        raise RuntimeError("%s in %s: %s" % (argv[0], root,
                                             r.stderr.decode(errors="replace").strip()))
    ns, rss, rc = r.stdout.split()[:3]
    if int(rc) != 0:
        raise RuntimeError("%s in %s: exit %s" % (argv[0], root, rc))
    return int(ns) / 1e6, int(rss)


def instructions(root, argv):
    """Ir of one run, from callgrind's totals line."""
    lib = "%s/lib:%s/usr/lib" % (root, root)
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
           os.path.join(root, "lib/ld-musl-x86_64.so.1"), "--library-path", lib,
           os.path.join(root, argv[0].lstrip("/"))] + argv[1:]
    with tempfile.TemporaryDirectory(prefix="qbb-image.") as scratch:
        r = subprocess.run(cmd, env=ENV, cwd=scratch, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE)
    for line in r.stderr.decode(errors="replace").splitlines():
        if "Collected :" in line:
            return int(line.split(":")[1].split()[0])
    return None


def measure(out, loader, linkopt, runs, warmup, do_cg, log):
    why = missing()
    if why:
        log("image row skipped: " + why)
        return {"skipped": why}
    roots = assemble(out, os.path.abspath(loader), os.path.abspath(linkopt), log)
    for root in roots.values():
        shutil.rmtree(root + SCRATCH, ignore_errors=True)
        os.mkdir(root + SCRATCH)
    res = {"programs": {}}
    rng = random.Random(1)
    for label, argv in PROGRAMS:
        wall = {n: [] for n, _ in ROOTS}
        rss = {}
        for i in range(warmup + runs):
            order = [n for n, _ in ROOTS]
            rng.shuffle(order)
            for n in order:
                ms, kb = timed(roots[n], argv)
                if i >= warmup:
                    wall[n].append(ms)
                    rss[n] = max(rss.get(n, 0), kb)
        p = {}
        for n, _ in ROOTS:
            p[n] = {"wall_ms": statistics.median(wall[n]), "rss_kb": rss[n]}
            if do_cg:
                p[n]["ir"] = instructions(roots[n], argv)
        res["programs"][label] = p
        log("image: %s measured" % label)
    for root in roots.values():
        shutil.rmtree(root + SCRATCH, ignore_errors=True)
    res["size_kb"] = int(subprocess.run(["du", "-sk", roots["musl"]], stdout=subprocess.PIPE)
                         .stdout.split()[0])
    return res


def section(res):
    """Markdown lines for the report."""
    img = res.get("image")
    if not img:
        return []
    lines = ["## Image (busybox, Lua, zlib in a musl root filesystem)", ""]
    if "skipped" in img:
        return lines + ["Not measured: %s." % img["skipped"], ""]
    lines.append("Programs of the image made by `make image` (%d KiB), run in a chroot "
                 "where the image's loader is `/lib/ld-musl-x86_64.so.1`; median wall ms, "
                 "instructions (callgrind) where measured." % img.get("size_kb", 0))
    lines += ["", "| program | " + " | ".join(l for _, l in ROOTS) + " | tables x musl (Ir) |",
              "|---|" + "---|" * (len(ROOTS) + 1)]
    for label, p in img["programs"].items():
        cells = []
        for n, _ in ROOTS:
            v = p[n]
            ir = ("; %.2f M Ir" % (v["ir"] / 1e6)) if v.get("ir") else ""
            cells.append("%.2f ms%s" % (v["wall_ms"], ir))
        m, q = p["musl"].get("ir"), p["qb-all"].get("ir")
        ratio = "%.2f" % (q / m) if m and q else "-"
        lines.append("| %s | %s | %s |" % (label, " | ".join(cells), ratio))
    return lines + [""]
