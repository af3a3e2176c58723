"""Run shell-free build commands as a dependency graph, N at a time.

Libraries must be linked after the libraries they need (the linker reads
their SONAMEs), but the expensive part, compiling, has no ordering at all;
a small scheduler keeps both cores busy without generating a Makefile.
"""

import os
import subprocess
import sys


class BuildError(Exception):
    pass


def run(tasks, jobs=2, verbose=False):
    """tasks: {name: (argv, [dependency names])}. Raises BuildError."""
    pending = dict(tasks)
    done = set()
    running = {}  # pid -> (name, Popen)
    failed = None
    while pending or running:
        if failed is None:
            for name in list(pending):
                if len(running) >= jobs:
                    break
                argv, deps = pending[name]
                if all(d in done for d in deps):
                    del pending[name]
                    if verbose:
                        print("  " + " ".join(argv), file=sys.stderr)
                    p = subprocess.Popen(argv, stdout=subprocess.PIPE,
                                         stderr=subprocess.STDOUT)
                    running[p.pid] = (name, p)
        if not running:
            if failed is not None:
                break
            raise BuildError("dependency cycle or unknown dependency among: "
                             + ", ".join(sorted(pending)))
        pid, status = os.wait()
        if pid not in running:
            continue
        name, p = running.pop(pid)
        out = p.stdout.read().decode(errors="replace")
        p.stdout.close()
        p.returncode = os.waitstatus_to_exitcode(status)
        if p.returncode != 0:
            failed = failed or (name, p.args, out)
        else:
            done.add(name)
    if failed is not None:
        name, argv, out = failed
        raise BuildError("%s failed: %s\n%s" % (name, " ".join(argv), out[-4000:]))
