#!/bin/sh
# scripts/i386-qemu.sh COMMAND [ARG...]: run COMMAND where i386 programs
# run under qemu-user, as on a machine whose kernel cannot run them, even
# when this one can: in a user and mount namespace of its own, whose
# binfmt_misc hands them to qemu (i386-binfmt.sh). The rest of the
# machine keeps running them natively. `make check I386_EXEC=qemu` runs
# every suite this way.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || { echo "usage: scripts/i386-qemu.sh COMMAND [ARG...]" >&2; exit 2; }
exec unshare --user --map-root-user --mount --propagation private \
	sh -c '"$0" --private >&2 && exec "$@"' "$here/i386-binfmt.sh" "$@"
