#!/bin/sh
# scripts/image/copy.sh SRC DST [TAR-OPTION...]: copy the root filesystem
# SRC to DST (made anew): files, links, modes and times, and owners where
# this user may set them (root outside a user namespace; anywhere else
# the copy is the copier's, as an ordinary copy would be). A device node
# is made again only where the kernel permits it and otherwise skipped
# with a line saying so: no image needs one (assemble.sh), and a copy made
# by an ordinary user or in a user namespace must not fail on it.
# TAR-OPTION...: given to the tar that reads SRC (--exclude=PATTERN).
set -eu
[ $# -ge 2 ] || { echo "usage: scripts/image/copy.sh SRC DST [TAR-OPTION...]" >&2; exit 2; }
src=$1 dst=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
(cd "$src" && find . \( -type b -o -type c \)) > "$tmp/devices"
# Only the initial user namespace's root may give a file any owner; a
# namespace's root maps a few uids at most.
own=--no-same-owner
[ "$(id -u)" != 0 ] || [ "$(tr -s ' \t' ' ' < /proc/self/uid_map)" != " 0 0 4294967295" ] ||
	own=--same-owner
rm -rf "$dst"
mkdir "$dst"
# (no pipefail in sh: the reading tar's failure is recorded apart)
{ tar -C "$src" -X "$tmp/devices" "$@" -cf - . || echo failed > "$tmp/read"; } |
	tar -C "$dst" -xpf - $own
[ ! -e "$tmp/read" ] || { echo "copy.sh: cannot read $src" >&2; exit 1; }
while read -r d; do
	t=c
	[ -c "$src/$d" ] || t=b
	# major and minor in hex, then the mode in octal
	set -- $(stat -c '%t %T %a %u:%g' "$src/$d")
	if mknod -m "$3" "$dst/$d" $t $((0x$1)) $((0x$2)) 2>/dev/null; then
		[ $own != --same-owner ] || chown "$4" "$dst/$d"
	else
		echo "copy.sh: $d not copied (device nodes cannot be made here)" >&2
	fi
done < "$tmp/devices"
