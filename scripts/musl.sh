#!/bin/sh
# scripts/musl.sh VERSION ARCH: build Debian's source of musl VERSION for
# ARCH (x86_64 with gcc, i386 with i686-linux-gnu-gcc) and install it, with
# its musl-gcc wrapper and specs, into $QB_CACHE/musl-VERSION/ARCH (default
# cache /var/cache/quickbind); print that directory. Built once: a second
# call only prints the path.
#
# The installation is self-contained: its musl-gcc links programs whose
# PT_INTERP is PREFIX/lib/ld-musl-ARCH.so.1, that musl's own loader, so
# the comparison suites run their reference under the right musl.
# Debian ships 1.2.3 (bookworm), 1.2.5 (trixie) and 1.2.6 (sid); it never
# shipped 1.2.4, so no recipe fetches it.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "musl.sh: $*" >&2; exit 1; }

[ $# = 2 ] || die "usage: scripts/musl.sh VERSION ARCH (VERSION 1.2.3, 1.2.5 or 1.2.6, or VERSION-upstream; ARCH x86_64 or i386)"
version=$1 arch=$2
# VERSION-upstream: the release itself, as other distributions start
# from it: Debian's patches taken off again.
release=${version%-upstream}
case "$release" in
1.2.3) suite=bookworm ;;
1.2.5) suite=trixie ;;
1.2.6) suite=sid ;;
*) die "no Debian suite ships musl '$version' (1.2.3 bookworm, 1.2.5 trixie, 1.2.6 sid)" ;;
esac
case "$arch" in
x86_64) cc=gcc ;;
i386) cc=i686-linux-gnu-gcc ;;
*) die "unsupported architecture '$arch' (x86_64, i386)" ;;
esac
command -v "$cc" >/dev/null || die "$cc not found: run scripts/deps.sh"

cache=${QB_CACHE:-/var/cache/quickbind}
dest=$cache/musl-$version/$arch
if [ -f "$dest/.qb-musl" ]; then
	echo "$dest"
	exit 0
fi

# sid moves and its mirror may lag behind its index: accept the upstream
# tarball the index lists when Debian's packaging files are not served.
src=$("$top/scripts/debsrc.sh" musl "$suite" upstream-ok) || die "cannot fetch the source of musl from $suite"
have=$(cat "$src/VERSION" 2>/dev/null || echo unknown)
[ "$have" = "$release" ] || die "$suite now has musl $have, not $release ($src)"
if [ "$version" != "$release" ]; then
	origin="upstream $release (Debian $suite's source without its patches)"
elif [ -f "$src/debian/changelog" ]; then
	origin="Debian $suite $(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$src/debian/changelog")"
else
	origin="upstream $version as listed by Debian $suite (Debian's patches not served)"
fi

mkdir -p "$cache/musl-$version"
work=$(mktemp -d "$cache/musl-$version/.build-$arch.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
echo "musl.sh: building musl $version for $arch ($origin)" >&2
if [ "$version" != "$release" ]; then
	# a copy of the tree with the series reversed, last patch first
	cp -a "$src" "$work/src"
	src=$work/src
	if [ -f "$src/debian/patches/series" ]; then
		for p in $(sed -e 's/#.*//' "$src/debian/patches/series" | awk 'NF { print $1 }' | tac); do
			patch -s -R -p1 -d "$src" < "$src/debian/patches/$p" ||
				die "cannot take Debian's patch $p off musl $release"
		done
	fi
fi
(
	cd "$work" &&
	"$src/configure" --prefix="$dest" --syslibdir="$dest/lib" --enable-wrapper=gcc \
		CC="$cc" CFLAGS="-O2 -g" >build.log 2>&1 &&
	nice -n 10 make -j2 WRAPCC_GCC="$cc" >>build.log 2>&1 &&
	make install WRAPCC_GCC="$cc" DESTDIR="$work/stage" >>build.log 2>&1
) || { tail -20 "$work/build.log" >&2; die "building musl $version for $arch failed"; }
# Paths inside the installation (specs, wrapper, loader link) name $dest:
# staged under DESTDIR, then moved there whole so that a half-built
# installation never appears.
rm -rf "$dest"
mv "$work/stage$dest" "$dest"
echo "$version $arch $origin" > "$dest/.qb-musl"
echo "$dest"
