#!/bin/sh
# scripts/image/tar.sh ROOT TARBALL: the root filesystem ROOT as a tarball
# that docker import and podman import (rootless too) take as an image's
# root: every entry owned by uid and gid 0, by number, whoever built ROOT
# (an ordinary user's files are root's in the image), and no device node
# (the container runtime provides /dev; rootless podman could not make
# one). Written beside TARBALL and renamed, so a failed run leaves none.
set -eu
[ $# -eq 2 ] || { echo "usage: scripts/image/tar.sh ROOT TARBALL" >&2; exit 2; }
root=$1 out=$2
devices=$(mktemp)
trap 'rm -f "$devices" "$out.tmp"' EXIT INT TERM
(cd "$root" && find . \( -type b -o -type c \)) > "$devices"
tar --sort=name --owner=0 --group=0 --numeric-owner -X "$devices" -C "$root" -cf "$out.tmp" .
mv "$out.tmp" "$out"
