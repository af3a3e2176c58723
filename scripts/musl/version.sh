#!/bin/sh
# scripts/musl/version.sh FILE: print the musl version FILE was built from
# or with: a libc.a (its version.lo), musl's libc.so / ld-musl-*.so.1, or a
# quickbind loader (which names the musl it is built on). In musl's own
# files the version is the one string of read-only data that is a dotted
# triple standing alone (musl's __libc_version); none or several is an
# error, so a file of unknown make is never given a guessed version.
set -eu
f=${1:?usage: scripts/musl/version.sh FILE}
die() { echo "version.sh: $f: $*" >&2; exit 1; }
[ -f "$f" ] || die "no such file"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
obj=$f
case "$(head -c 8 "$f" | tr -d '\n')" in
'!<arch>')
	(cd "$tmp" && ar p "$f" version.lo > version.lo 2>/dev/null) && [ -s "$tmp/version.lo" ] ||
		die "no version.lo: not musl's libc.a"
	obj=$tmp/version.lo ;;
esac
# A quickbind loader says it in so many words (ldso/muslbase.c).
v=$(tr '\0' '\n' < "$obj" | sed -n 's/^quickbind-musl-base=\([0-9][0-9.]*\)$/\1/p' | sort -u)
if [ -n "$v" ]; then
	echo "$v"
	exit 0
fi
# Without section headers (a file stripped to its segments) read it whole.
objcopy -O binary --only-section='.rodata*' "$obj" "$tmp/ro" 2>/dev/null && [ -s "$tmp/ro" ] ||
	cp "$obj" "$tmp/ro"
v=$(tr '\0' '\n' < "$tmp/ro" | grep -aoE '(^|[^0-9A-Za-z._/+-])[0-9]+\.[0-9]+\.[0-9]+$' |
	grep -aoE '[0-9.]+$' | sort -u)
case "$v" in
'') die "no musl version string" ;;
*[!0-9.]*) die "several version-like strings: $(echo $v)" ;;
esac
echo "$v"
