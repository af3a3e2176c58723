#!/bin/sh
# scripts/image/chroot.sh [-w DIR] ROOT COMMAND [ARG...]: run COMMAND (a
# path in ROOT) with ROOT as its root directory and DIR (in ROOT, default
# /) as its working directory, as any user the kernel lets make a user
# namespace, root or not: in a user and mount namespace of its own, where
# ROOT/dev is a private tmpfs holding the host's /dev/null. The image
# needs no device node for it (assemble.sh makes none where it cannot),
# and nothing is written into ROOT/dev: a program's 2>/dev/null in a
# chroot without the node would leave a file there. COMMAND runs as uid 0
# of that namespace, the caller's own uid outside.
set -eu
usage() { echo "usage: scripts/image/chroot.sh [-w DIR] ROOT COMMAND [ARG...]" >&2; exit 2; }
wd=/
if [ "${1:-}" = -w ]; then
	[ $# -ge 2 ] || usage
	wd=$2
	shift 2
fi
[ $# -ge 2 ] || usage
root=$(cd "$1" && pwd)
shift
[ -d "$root/dev" ] || { echo "chroot.sh: $root has no /dev directory to mount on" >&2; exit 1; }
exec unshare --user --map-root-user --mount --propagation private \
	/bin/sh -c 'wd=$1 && shift && mount -t tmpfs -o mode=755 qb-dev "$0/dev" && : > "$0/dev/null" &&
		mount --bind /dev/null "$0/dev/null" && exec unshare --root="$0" --wd="$wd" -- "$@"' \
	"$root" "$wd" "$@"
