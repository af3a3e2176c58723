"""What the real-application rows of the benchmark share: bench/gstbench.py
(the GStreamer stack), bench/icubench.py (ICU) and bench/abseilbench.py,
built for musl by make check-real-large and measured against Debian's own
glibc build of the same version.

Each row runs a few programs under five variants (VARIANTS): Debian's build
under glibc's ld.so, lazy and with LD_BIND_NOW=1; the musl build under
musl's loader; the same files with PT_INTERP naming quickbind; and those
after one linkopt run over every ELF file.  A variant is a dict: name, exe,
args, env, cwd (and whatever the row adds).  measure_program() checks that
each variant runs, times them in interleaved rounds through the static
launcher (bench/launch.c, run.spawn_timed) and counts instructions with
callgrind (children traced): the whole process tree, the loader's own
object, and the binding work proper (inclusive instructions of the
relocation functions of BINDING_FUNCS).
"""

import glob
import os
import random
import re
import statistics
import struct
import subprocess

import qemucount
import run

VARIANTS = [("glibc-lazy", "glibc ld.so (lazy), Debian's build"),
            ("glibc-now", "glibc ld.so LD_BIND_NOW=1, Debian's build"),
            ("musl", "musl ld.so"),
            ("qb-none", "quickbind, no tables"),
            ("qb-all", "quickbind, all tables (linkopt)")]
# the rows of a program's table: the variants, and for abseil's programs
# their libraries mapped by a static program, nothing else
# (bench/mapfloor.c)
ROWS = VARIANTS + [("map-floor", "the same libraries mapped alone, no loader")]
ANNOTATE_LINE = re.compile(r"^\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?(\S+)")
BINDING_FUNCS = {"glibc": ("_dl_relocate_object", "_dl_fixup"),
                 # start-up relocation runs in qb_relocate_all (through GCC's
                 # qb_relocate.part.0), dlopen's in qb_relocate: disjoint
                 "qb": ("qb_relocate_all", "qb_relocate"),
                 # musl's dynlink.c: reloc_all relocates every object not yet
                 # relocated, at start-up and in dlopen (do_relocs, find_sym)
                 "musl": ("reloc_all",)}
LOADER_OBJECTS = re.compile(r"/ld-linux-x86-64\.so|/ld-linux\.so\.2|/ld-musl-|/ld-quickbind-"
                            r"|(x86_64|i386)-linux-musl/libc\.so"
                            # scripts/musl.sh's builds (unstripped)
                            r"|/musl-[0-9.]+/(x86_64|i386)/lib/libc\.so")
# What differs between the architectures a row runs on: the loaders, the
# compilers of the musl and the Debian builds, Debian's library directory.
ARCHS = {"x86_64": {"musl_ldso": "/lib/ld-musl-x86_64.so.1",
                    "glibc_ldso": "/lib64/ld-linux-x86-64.so.2",
                    "musl_cxx": "musl-c++", "gxx": "g++", "musl_cc": "musl-gcc",
                    "deb_libdir": "/usr/lib/x86_64-linux-gnu"},
         "i386": {"musl_ldso": "/lib/ld-musl-i386.so.1",
                  "glibc_ldso": "/lib/ld-linux.so.2",
                  "musl_cxx": "musl-c++-i386", "gxx": "i686-linux-gnu-g++",
                  "musl_cc": "i386-linux-musl-gcc",
                  "deb_libdir": "/usr/lib/i386-linux-gnu"}}


def musl_symbols(arch="x86_64"):
    """An unstripped build of the musl the system has (scripts/musl.sh), or
    None: (version, path of its libc.so)."""
    r = subprocess.run([ARCHS[arch]["musl_ldso"]], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    ver = None
    for line in r.stdout.decode(errors="replace").splitlines():
        if line.startswith("Version "):
            ver = line.split()[1]
    p = os.path.join(os.environ.get("QB_CACHE", "/var/cache/quickbind"), "musl-%s" % ver, arch,
                     "lib", "libc.so")
    return (ver, p) if ver and os.path.exists(p) else None


def count_musl_binding(p, sym_variant, do_cg, tmp):
    """musl's binding in p (measure_program's result), counted by callgrind
    on sym_variant: the musl variant run by the unstripped musl; nothing
    where callgrind did not count (off, or qemu-user's count)."""
    if do_cg and sym_variant and p["musl"].get("ir") is not None and p["musl"].get("counter") != "qemu":
        c = callgrind(dict(sym_variant, name="musl"), tmp)
        p["musl"]["binding_ir"] = c["binding_ir"]
        p["musl"]["sym_ir"] = c["ir"]


def musl_binding_text(g):
    """How the musl row's binding column was counted (for columns_text)."""
    if g.get("musl_symbols"):
        return (", musl reloc_all: counted on scripts/musl.sh's unstripped build of the same "
                "musl %s, the installed libc.so being stripped" % g["musl_symbols"])
    return ", musl reloc_all: not counted, musl's libc.so is stripped"


def musl_binding_lines(p):
    """The line under a program's table saying what the unstripped musl ran."""
    if not p.get("musl", {}).get("sym_ir"):
        return []
    return ["", "musl's binding counted on the unstripped build (%s Ir in all)." % fmt_ir(p["musl"]["sym_ir"])]


def set_interp(path, interp):
    """Replace PT_INTERP of an ELF file (64- or 32-bit) in place (NUL-padded,
    never longer)."""
    with open(path, "r+b") as f:
        h = f.read(64)
        if h[:4] != b"\x7fELF" or h[4] not in (1, 2):
            return
        if h[4] == 2:
            phoff, = struct.unpack_from("<Q", h, 32)
            phentsize, phnum = struct.unpack_from("<HH", h, 54)
            offs, word = (8, 32), "<Q"
        else:
            phoff, = struct.unpack_from("<I", h, 28)
            phentsize, phnum = struct.unpack_from("<HH", h, 42)
            offs, word = (4, 16), "<I"
        for i in range(phnum):
            f.seek(phoff + i * phentsize)
            ph = f.read(phentsize)
            if struct.unpack_from("<I", ph, 0)[0] == 3:
                off, = struct.unpack_from(word, ph, offs[0])
                size, = struct.unpack_from(word, ph, offs[1])
                b = interp.encode()
                if len(b) >= size:
                    raise RuntimeError("%s: PT_INTERP too short for %s" % (path, interp))
                f.seek(off)
                f.write(b + b"\0" * (size - len(b)))
                return


def elf_files(root):
    """Every ELF file under root (symbolic links not followed)."""
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


def linkopt_all(linkopt, libdir, elfs):
    """One linkopt -v run over every file (programs as apps, the others as
    their libraries or modules), searching libdir first; the totals of
    refs()."""
    r = subprocess.run([linkopt, "-v", "-L", libdir] + elfs,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        raise RuntimeError("linkopt: " + r.stdout.decode(errors="replace")[-400:])
    return refs(r.stdout.decode(errors="replace"))


def short_link(tmp, target, name="q"):
    """A short path to target (PT_INTERP of a musl program has room for 24
    bytes): tmp/name."""
    p = os.path.join(tmp, name)
    os.symlink(os.path.abspath(target), p)
    return p


def loader_kind(name):
    return "glibc" if name.startswith("glibc") else "qb" if name.startswith("qb") else "musl"


def callgrind(v, tmp):
    """Total instructions of the process tree, in the loader's object, and
    in the binding functions (inclusive; None when the loader's symbols
    are not there to say, as for a stripped musl). Where the kernel runs
    the program under qemu-user (an i386 program on a kernel without
    i386), valgrind cannot: qemu's count of the whole process alone."""
    if qemucount.emulator(v["exe"]):
        c = run.instructions(v, tmp)
        if "error" in c:
            return {"ir": None, "count_error": c["error"]}
        return {"ir": c["Ir"], "loader_ir": None, "binding_ir": None, "counter": "qemu"}
    for f in glob.glob(os.path.join(tmp, "cg.*")):
        os.unlink(f)
    subprocess.run(["valgrind", "--tool=callgrind", "--trace-children=yes", "-q",
                    "--callgrind-out-file=" + os.path.join(tmp, "cg.%p"), v["exe"]] + v["args"],
                   env=v["env"], cwd=v["cwd"], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    total = loader = binding = 0
    kind = loader_kind(v["name"])
    seen = False
    for f in glob.glob(os.path.join(tmp, "cg.*")):
        # per object from the cost lines themselves: callgrind_annotate
        # names the object only of a function's own file, not of the lines
        # inlined from headers, which would go uncounted
        objs = run.ir_by_object(f) or {}
        total += sum(objs.values())
        loader += sum(n for o, n in objs.items() if LOADER_OBJECTS.search(o))
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
        seen = seen or bool(best)
        binding += sum(best.values())
    return {"ir": total, "loader_ir": loader, "binding_ir": binding if seen else None}


def check(v, output=False):
    """Runs v once: sets v["status"] ("ok" or why not) and, with output,
    v["stdout"]."""
    r = subprocess.run([v["exe"]] + v["args"], env=v["env"], cwd=v["cwd"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    v["status"] = "ok" if r.returncode == 0 else \
        "failed: exit %d: %s" % (r.returncode, r.stderr.decode(errors="replace")[-200:])
    if output:
        v["stdout"] = r.stdout
    return r


def measure_program(vs, runs, warmup, do_cg, tmp, seed=1, once=None, cg_variant=None):
    """Interleaved timing of variants that passed check() (every round runs
    each once, in a shuffled order), then one callgrind run of each:
    {name: {status, wall_ms, rss_kb, ir, loader_ir, binding_ir}}.
    once(v): one timed run (default run.spawn_timed); cg_variant(v): called
    before the callgrind run of v, returns the variant to run (default v
    itself; a row may prepare state, or count the binding work of a loader
    whose installed copy is stripped on an unstripped build of the same
    version)."""
    once = once or run.spawn_timed
    rng = random.Random(seed)
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
    for v in vs:
        e = {"status": v["status"]}
        if wall.get(v["name"]) and v["status"] == "ok":
            e["wall_ms"] = statistics.median(wall[v["name"]])
            e["rss_kb"] = rss[v["name"]]
            if do_cg:
                c = callgrind(cg_variant(v) if cg_variant else v, tmp)
                e.update(c)
        p[v["name"]] = e
    return p


def fmt_ir(x):
    return "%.2f M" % (x / 1e6) if x is not None else "-"


def program_table(p):
    """Markdown lines of one program's table (no heading)."""
    lines = ["| variant | wall ms | x glibc lazy | x musl | Ir | loader object Ir | binding Ir | RSS KiB |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    base = p.get("glibc-lazy", {}).get("wall_ms")
    musl = p.get("musl", {}).get("wall_ms")
    for n, lab in ROWS:
        if n not in p:
            continue
        v = p[n]
        if "wall_ms" not in v:
            lines.append("| %s | %s | | | | | | |" % (lab, v.get("status", "not run")))
            continue
        w = v["wall_ms"]
        lines.append("| %s | %.1f | %s | %s | %s | %s | %s | %d |" % (
            lab, w, "%.2f" % (w / base) if base else "-", "%.2f" % (w / musl) if musl else "-",
            fmt_ir(v.get("ir")), fmt_ir(v.get("loader_ir")), fmt_ir(v.get("binding_ir")),
            v.get("rss_kb", 0)))
    return lines


STAT_KEYS = ("objects", "relocations", "lookups", "direct_hits", "definition_hints",
             "scope_definers", "names_hashed")


def qb_statistics(vs):
    """The loader's own account (LD_DEBUG=statistics) of each quickbind
    variant that ran."""
    return {v["name"]: {k: x for k, x in run.ld_statistics(v).get("values", {}).items()
                        if k in STAT_KEYS}
            for v in vs if v["name"].startswith("qb") and v["status"] == "ok"}


def same_output(p, vs, ref, which=lambda v: True):
    """Marks in p each variant chosen by which whose output is ref's."""
    for v in vs:
        if v["status"] == "ok" and which(v) and v["name"] in p:
            p[v["name"]]["same_output"] = v.get("stdout") == ref


def linkopt_lines(g):
    """What linkopt made of the layout: its counts and how each referenced
    symbol is bound."""
    lines = []
    r = g.get("refs")
    if r:
        lines += ["", "linkopt -v over the %d ELF files of the layout (one run, %.1f s; programs "
                  "as apps): " % (g["files"], g["linkopt_s"])
                  + ", ".join("%d %s" % (r[k], k) for k in REF_KINDS) + " (dynamic symbols)."]
    b = g.get("binding")
    if b:
        lines += ["", "How the loader binds the referenced symbols of the optimized files "
                  "(`linkopt --dump`; a symbol counts when a relocation names it):", "",
                  "| bound | symbols | relocations |", "|---|---:|---:|"]
        for k, lab in BIND_KINDS:
            if b[k][0]:
                lines.append("| %s | %d | %d |" % (lab, b[k][0], b[k][1]))
    return lines


def program_lines(label, p):
    """A program's heading, table, and the variants whose output differs."""
    lines = ["", "### " + label, ""] + program_table(p)
    same = {n: e["same_output"] for n, e in p.items() if "same_output" in e}
    if same and not all(same.values()):
        lines += ["", "Output differs from musl's under: " +
                  ", ".join(n for n, s in same.items() if not s)]
    return lines


def statistics_lines(st):
    if not st:
        return []
    return ["", "LD_DEBUG=statistics: " + "; ".join(
        "%s: %s" % (n, ", ".join("%s=%d" % (k, s[k]) for k in STAT_KEYS if k in s))
        for n, s in st.items())]


def reloc_counts(path):
    """{symbol index: relocations against it} of an x86_64 or i386 ELF
    file, read from DT_RELA or DT_REL and DT_JMPREL (the relative ones,
    symbol 0, left out)."""
    with open(path, "rb") as f:
        b = f.read()
    if b[:4] != b"\x7fELF" or b[4] not in (1, 2):
        return {}
    c64 = b[4] == 2
    if c64:
        phoff, = struct.unpack_from("<Q", b, 32)
        phentsize, phnum = struct.unpack_from("<HH", b, 54)
    else:
        phoff, = struct.unpack_from("<I", b, 28)
        phentsize, phnum = struct.unpack_from("<HH", b, 42)
    loads, dyn = [], None
    for i in range(phnum):
        if c64:
            t, _, off, vaddr, _, filesz = struct.unpack_from("<IIQQQQ", b, phoff + i * phentsize)
        else:
            t, off, vaddr, _, filesz = struct.unpack_from("<IIIII", b, phoff + i * phentsize)
        if t == 1:
            loads.append((vaddr, off, filesz))
        elif t == 2:
            dyn = (off, filesz)
    if not dyn:
        return {}

    def offset(va):
        for v, o, n in loads:
            if v <= va < v + n:
                return o + va - v
        return None
    tags = {}
    dent, dfmt = (16, "<qQ") if c64 else (8, "<iI")
    for k in range(dyn[1] // dent):
        tag, val = struct.unpack_from(dfmt, b, dyn[0] + dent * k)
        if tag == 0:
            break
        tags[tag] = val
    out = {}
    # DT_RELA/RELASZ or DT_REL/RELSZ, then DT_JMPREL/PLTRELSZ (its entry
    # size by DT_PLTREL)
    for addr_tag, size_tag in ((7, 8), (17, 18), (23, 2)):
        if addr_tag not in tags or size_tag not in tags:
            continue
        o = offset(tags[addr_tag])
        if o is None:
            continue
        rela = addr_tag == 7 or (addr_tag == 23 and tags.get(20) == 7)
        ent = (24 if rela else 16) if c64 else (12 if rela else 8)
        for k in range(tags[size_tag] // ent):
            if c64:
                info, = struct.unpack_from("<Q", b, o + ent * k + 8)
                sym = info >> 32
            else:
                info, = struct.unpack_from("<I", b, o + ent * k + 4)
                sym = info >> 8
            if sym:
                out[sym] = out.get(sym, 0) + 1
    return out


# How the loader binds a referenced symbol of an optimized file, from
# linkopt --dump's "Bound to" and "Hint" columns (docs/FORMAT.md): in this
# order, the first that applies.
BIND_KINDS = [("hint", "directly, at the definition hint"),
              ("direct", "directly, looked up in the library named"),
              ("parent", "directly, in the host of a module"),
              ("scope", "through the scope definer linkopt recorded"),
              ("self", "standard lookup: its own definition (interposable)"),
              ("vague", "standard lookup: vague (C++ vague linkage, weak)"),
              ("multi", "standard lookup: defined by several libraries"),
              ("nodirect", "standard lookup: no-direct (interposition)"),
              ("notfound", "standard lookup: not found in the closure (undefined weak)"),
              ("none", "standard lookup: no entry")]


def bind_breakdown(linkopt, elfs):
    """{kind: [referenced symbols, relocations]} over the optimized files
    (a symbol counts when at least one relocation names it)."""
    tot = {k: [0, 0] for k, _ in BIND_KINDS}
    dumps = {p: subprocess.run([linkopt, "--dump", p], stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL).stdout.decode(errors="replace")
             for p in elfs}
    for path in elfs:
        counts = reloc_counts(path)
        if not counts:
            continue
        needed = []  # needed[K] is a scope definer?
        for line in dumps[path].splitlines():
            if line.startswith("needed ["):
                needed.append("<scope definer" in line)
                continue
            f = line.split()
            if len(f) < 7 or not f[0].isdigit():
                continue
            i, bound, hint = int(f[0]), f[1], f[5]
            n = counts.get(i)
            if not n:
                continue
            scoped = "@" in hint and int(hint.split("@")[1]) < len(needed) and \
                needed[int(hint.split("@")[1])]
            if scoped:
                kind = "scope"
            elif not bound.startswith("<"):
                kind = "hint" if hint != "-" else "direct"
            elif bound == "<parent>":
                kind = "parent"
            elif bound.startswith("<self"):
                kind = "self"
            else:
                kind = bound.strip("<>")
                if kind not in tot:
                    kind = "none"
            tot[kind][0] += 1
            tot[kind][1] += n
    return tot


def section_head(res, key, title):
    """The row's results and the first lines of its report section: (None,
    []) when the row did not run, (None, lines saying why) when it was
    skipped."""
    g = res.get(key)
    if not g:
        return None, []
    lines = ["## %s" % title, ""]
    if "skipped" in g:
        return None, lines + ["Not measured: %s." % g["skipped"], ""]
    return g, lines


def columns_text(musl_binding):
    """What the loader-object and binding columns count."""
    return ("loader object: instructions inside the loader's own object (for musl and "
            "quickbind the loader is also libc); binding: inclusive instructions of the "
            "relocation functions (quickbind qb_relocate_all + qb_relocate, glibc "
            "_dl_relocate_object + _dl_fixup%s)." % musl_binding)


def counter_text(g):
    """How a row's instructions were counted."""
    qemu = any(e.get("counter") == "qemu" for p in g.get("programs", {}).values()
               for e in p.values() if isinstance(e, dict))
    return ("counted under qemu-user, this kernel running no i386 program itself "
            "(bench/qemucount.py): the whole process only, no loader or binding figures"
            if qemu else "callgrind")


def main(key, what, measure, section):
    """A row run alone (python3 bench/ROW.py): measures it into OUT.json
    and prints its report section."""
    import argparse
    import json
    ap = argparse.ArgumentParser(description="the %s row alone" % what)
    ap.add_argument("--out")
    ap.add_argument("--arch", default="x86_64", choices=sorted(ARCHS),
                    help="the architecture of the builds (i386: where the row has it)")
    ap.add_argument("--runs", type=int, default=11)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--loader", help="default: build/lib/ld-quickbind-ARCH.so.1")
    ap.add_argument("--linkopt", default="build/bin/linkopt")
    a = ap.parse_args()
    if a.arch != "x86_64":
        key += "-" + a.arch
    out = os.path.abspath(a.out or "build/bench/" + key)
    loader = a.loader or "build/lib/ld-quickbind-%s.so.1" % a.arch
    run.ensure_launcher(os.path.join(os.path.dirname(out), "qbb-launch"))
    kw = {"arch": a.arch} if a.arch != "x86_64" else {}
    r = measure(out, loader, a.linkopt, a.runs, a.warmup, not a.no_callgrind,
                lambda m: print(m, flush=True), **kw)
    with open(out + ".json", "w") as f:
        json.dump(r, f, indent=1)
    print("\n".join(section({key: r}, key)))
