#!/bin/sh
# scripts/debsrc.sh PACKAGE [SUITE [upstream-ok]]: fetch the source of a
# Debian package (patches applied) from SUITE (default bookworm) into the
# cache and print its directory. The system's apt configuration is untouched: a private
# deb-src list and private package lists live in the cache too, one set
# per suite. A second call only prints the path.
# QB_CACHE (default /var/cache/quickbind) holds everything.
set -eu
pkg=$1
suite=${2:-bookworm}
# upstream-ok: when the archive lists a source package but serves only its
# upstream tarball (a mirror that lags behind a moving suite), unpack that
# tarball alone; apt has checked it against the suite's signed index.
upstream_ok=${3:-}
cache=${QB_CACHE:-/var/cache/quickbind}
# bookworm keeps the paths it has always had, so existing caches stay valid.
case "$suite" in
bookworm) apt_dir=$cache/apt src_dir=$cache/src/$pkg ;;
*[!a-z0-9-]*|'') echo "debsrc.sh: bad suite name '$suite'" >&2; exit 1 ;;
*) apt_dir=$cache/apt-$suite src_dir=$cache/src-$suite/$pkg ;;
esac

found() {
	for d in "$src_dir"/*/; do
		[ -f "$d/debian/changelog" ] || [ -f "$d/.qb-upstream-only" ] || continue
		echo "${d%/}"; return 0
	done
	return 1
}
found && exit 0

command -v dpkg-source >/dev/null || { echo "debsrc.sh: dpkg-source missing (package dpkg-dev; run scripts/deps.sh)" >&2; exit 1; }
mkdir -p "$apt_dir/lists/partial" "$src_dir"
# One fetch at a time: parallel builds ask for sources side by side.
exec 8>"$apt_dir/.lock"
flock 8
found && exit 0
list=$apt_dir/sources.list
echo "deb-src http://deb.debian.org/debian $suite main" > "$list"
set -- -o Dir::Etc::SourceList="$list" -o Dir::Etc::SourceParts=/dev/null \
	-o Dir::State::Lists="$apt_dir/lists" -o APT::Sandbox::User=root
# The package lists are refreshed once a day at most.
stamp=$apt_dir/lists/.updated
if [ -z "$(find "$stamp" -mtime -1 2>/dev/null)" ]; then
	apt-get "$@" update -qq >&2 || { echo "debsrc.sh: cannot read the deb-src list of $suite" >&2; exit 1; }
	touch "$stamp"
fi
tmp=$(mktemp -d "$src_dir/.fetch.XXXXXX")
if ! (cd "$tmp" && apt-get "$@" source -qq "$pkg" >&2); then
	orig=$(ls "$tmp"/*.orig.tar.* 2>/dev/null | grep -v '\.asc$' | head -1)
	if [ "$upstream_ok" != upstream-ok ] || [ -z "$orig" ] ||
		! mkdir "$tmp/up" || ! tar -xf "$orig" -C "$tmp/up"; then
		rm -rf "$tmp"
		echo "debsrc.sh: apt-get source $pkg ($suite) failed" >&2
		exit 1
	fi
	echo "debsrc.sh: $suite's packaging of $pkg is not served; using its upstream tarball $(basename "$orig") without Debian's patches" >&2
	for d in "$tmp"/up/*/; do touch "$d/.qb-upstream-only" && mv "$d" "$tmp/"; done
fi
# Keep the unpacked tree only; move it in place when complete, so an
# interrupted fetch never looks like a finished one.
for d in "$tmp"/*/; do
	{ [ -f "$d/debian/changelog" ] || [ -f "$d/.qb-upstream-only" ]; } && mv "$d" "$src_dir/" && break
done
rm -rf "$tmp"
found || { echo "debsrc.sh: no source tree for $pkg ($suite)" >&2; exit 1; }
