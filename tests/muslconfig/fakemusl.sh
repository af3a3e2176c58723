#!/bin/sh
# tests/muslconfig/fakemusl.sh LIBDIR SPECS DEST [EDIT...]: a musl
# installation in DEST (made anew) that ./configure --musl=DEST accepts as
# a copy of the one in LIBDIR (its libc.a, start files and libc.so) with
# SPECS rewritten to DEST; then each EDIT changes it the way another musl
# would differ:
#   version=X.Y.Z    libc.a says it is musl X.Y.Z (same length as before)
#   size=SYM:BYTES   the member defining SYM defines it alone, BYTES long
#   drop=MEMBER      libc.a without MEMBER
#   libc-version=X.Y.Z  libc.so says it is musl X.Y.Z
set -eu
libdir=$1 specs=$2 dest=$3
shift 3
rm -rf "$dest"
mkdir -p "$dest/lib"
for f in "$libdir"/*.a "$libdir"/*.o "$libdir"/libc.so; do
	cp "$f" "$dest/lib/"
done
inc=$(sed -n 's/.*-isystem \([^ ]*\) -isystem include%s.*/\1/p' "$specs" | head -1)
ln -s "$inc" "$dest/include"
sed -e "s#$inc#$dest/include#g" -e "s#$libdir#$dest/lib#g" "$specs" > "$dest/lib/musl-gcc.specs"
# a loader named inside the copy (musl.sh's layout) is the copy's libc.so
ldso=$(sed -n 's/.*-dynamic-linker \([^ ]*\).*/\1/p' "$dest/lib/musl-gcc.specs" | head -1)
case "$ldso" in "$dest"/lib/*) ln -s libc.so "$ldso" ;; esac

relabel() {
	python3 -c '
import sys
p, new = sys.argv[1], sys.argv[2].encode()
b = open(p, "rb").read()
import re
m = [x for x in re.finditer(rb"(?<![0-9A-Za-z._/+-])[0-9]+\.[0-9]+\.[0-9]+\0", b)]
old = [x for x in m if len(x.group()) == len(new) + 1]
assert len(old) >= 1, "no version string of that length"
for x in old:
    b = b[:x.start()] + new + b"\0" + b[x.end():]
open(p, "wb").write(b)' "$1" "$2"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for e in "$@"; do
	case "$e" in
	version=*)
		(cd "$tmp" && ar x "$dest/lib/libc.a" version.lo)
		relabel "$tmp/version.lo" "${e#*=}"
		(cd "$tmp" && ar r "$dest/lib/libc.a" version.lo) ;;
	libc-version=*)
		relabel "$dest/lib/libc.so" "${e#*=}" ;;
	size=*)
		v=${e#*=} sym=${v%%:*} bytes=${v#*:}
		m=$(nm -A "$dest/lib/libc.a" 2>/dev/null | sed -n "s/^[^:]*:\([^:]*\):.* [BD] $sym\$/\1/p" | head -1)
		[ -n "$m" ] || { echo "fakemusl.sh: no member defines $sym" >&2; exit 1; }
		echo "__attribute__((visibility(\"hidden\"))) char $sym[$bytes];" > "$tmp/fake.c"
		cc=gcc; readelf -h "$dest/lib/crti.o" | grep -q "Class: *ELF32" && cc=i686-linux-gnu-gcc
		$cc -fPIC -fno-common -c -o "$tmp/$m" "$tmp/fake.c"
		(cd "$tmp" && ar r "$dest/lib/libc.a" "$m") ;;
	drop=*)
		ar d "$dest/lib/libc.a" "${e#*=}" ;;
	*) echo "fakemusl.sh: unknown edit '$e'" >&2; exit 1 ;;
	esac
done
