#!/bin/sh
# scripts/debsrc.sh PACKAGE: fetch the bookworm source of a Debian package
# (patches applied) into the cache and print its directory. The system's
# apt configuration is untouched: a private deb-src list and private
# package lists live in the cache too. A second call only prints the path.
# QB_CACHE (default /var/cache/quickbind) holds everything.
set -eu
pkg=$1
cache=${QB_CACHE:-/var/cache/quickbind}
apt_dir=$cache/apt
src_dir=$cache/src/$pkg

found() { for d in "$src_dir"/*/; do [ -f "$d/debian/changelog" ] && { echo "${d%/}"; return 0; }; done; return 1; }
found && exit 0

command -v dpkg-source >/dev/null || { echo "debsrc.sh: dpkg-source missing (package dpkg-dev; run scripts/deps.sh)" >&2; exit 1; }
mkdir -p "$apt_dir/lists/partial" "$src_dir"
# One fetch at a time: parallel builds ask for sources side by side.
exec 8>"$apt_dir/.lock"
flock 8
found && exit 0
list=$apt_dir/sources.list
echo "deb-src http://deb.debian.org/debian bookworm main" > "$list"
set -- -o Dir::Etc::SourceList="$list" -o Dir::Etc::SourceParts=/dev/null \
	-o Dir::State::Lists="$apt_dir/lists" -o APT::Sandbox::User=root
# The package lists are refreshed once a day at most.
stamp=$apt_dir/lists/.updated
if [ -z "$(find "$stamp" -mtime -1 2>/dev/null)" ]; then
	apt-get "$@" update -qq >&2 || { echo "debsrc.sh: cannot read the deb-src list" >&2; exit 1; }
	touch "$stamp"
fi
tmp=$(mktemp -d "$src_dir/.fetch.XXXXXX")
if ! (cd "$tmp" && apt-get "$@" source -qq "$pkg" >&2); then
	rm -rf "$tmp"
	echo "debsrc.sh: apt-get source $pkg failed" >&2
	exit 1
fi
# Keep the unpacked tree only; move it in place when complete, so an
# interrupted fetch never looks like a finished one.
for d in "$tmp"/*/; do
	[ -f "$d/debian/changelog" ] && mv "$d" "$src_dir/" && break
done
rm -rf "$tmp"
found || { echo "debsrc.sh: no source tree for $pkg" >&2; exit 1; }
