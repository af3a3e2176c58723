#!/bin/sh
# scripts/install.sh BUILD DESTDIR PREFIX ARCH=MUSLVERSION...: what
# `make install` does, for each built architecture ARCH whose loader
# (BUILD/lib/ld-quickbind-ARCH.so.1) is linked with musl MUSLVERSION.
#
# quickbind is its programs' libc, so it goes only where the musl already
# there is the one it was built on: DESTDIR/lib/ld-musl-ARCH.so.1, when
# present, is read (scripts/musl/version.sh: musl's own file, or a
# quickbind installed before) and any other version is refused, with one
# line, before anything is written.
#   DESTDIR a musl image (it has /lib/ld-musl-ARCH.so.1): quickbind
#       becomes the image's loader, the way a musl distribution ships one:
#       that file is replaced (libc.musl-*.so.1 and ldd keep pointing at
#       it), /lib/ld-quickbind-ARCH.so.1 links to it, and the image's
#       library path stays its own. linkopt, a host program, is not put in.
#   otherwise (this system, or an empty root): /lib/ld-quickbind-ARCH.so.1
#       beside the system's loader, /etc/ld-quickbind-ARCH.path when
#       absent, linkopt in PREFIX/bin and its link-step wrapper in
#       PREFIX/lib/linkopt (gcc -B PREFIX/lib/linkopt).
# The loader goes in stripped, as a distribution ships it; on a system its
# debugging information goes to /usr/lib/debug, where gdb and valgrind look: by
# build id (.build-id/XX/REST.debug) and by the name its .gnu_debuglink
# gives (lib/ld-quickbind-ARCH.so.1.debug).
set -eu
[ $# -ge 3 ] || { echo "usage: scripts/install.sh BUILD DESTDIR PREFIX ARCH=MUSLVERSION..." >&2; exit 2; }
top=$(cd "$(dirname "$0")/.." && pwd)
build=$1 root=$2 prefix=$3
shift 3
die() { echo "install: $*" >&2; exit 1; }

# inside ROOT: a path, its symbolic links followed within ROOT (an
# absolute link in an image names a file of the image, not of this host)
resolve() {
	p=$1 n=0
	while [ -L "$root$p" ]; do
		n=$((n + 1))
		[ $n -le 16 ] || return 1
		t=$(readlink "$root$p")
		case "$t" in /*) p=$t ;; *) p=$(dirname "$p")/$t ;; esac
	done
	echo "$root$p"
}

# split_debug LOADER ARCH DIR: DIR/loader (stripped, with a debuglink)
# and DIR/ld-quickbind-ARCH.so.1.debug
split_debug() {
	dbg=$3/ld-quickbind-$2.so.1.debug
	objcopy --only-keep-debug "$1" "$dbg" &&
		objcopy --strip-unneeded --remove-section=.comment --add-gnu-debuglink="$dbg" "$1" "$3/loader" ||
		die "cannot split the debugging information off $1"
	chmod 644 "$dbg"
}

# install_debug ARCH DIR: DIR's debug file under ROOT/usr/lib/debug
install_debug() {
	d=$root/usr/lib/debug
	install -D -m 644 "$2/ld-quickbind-$1.so.1.debug" "$d/lib/ld-quickbind-$1.so.1.debug"
	id=$(readelf -n "$2/loader" | sed -n 's/^ *Build ID: *\([0-9a-f]*\)$/\1/p' | head -1)
	[ -n "$id" ] || return 0
	hh=$(echo "$id" | cut -c1-2) rest=$(echo "$id" | cut -c3-)
	install -d "$d/.build-id/$hh"
	ln -sfn "../../lib/ld-quickbind-$1.so.1.debug" "$d/.build-id/$hh/$rest.debug"
}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

image=""
for spec in "$@"; do
	a=${spec%%=*} want=${spec#*=}
	loader=$build/lib/ld-quickbind-$a.so.1
	[ -f "$loader" ] || die "$loader missing: run make first"
	musl=/lib/ld-musl-$a.so.1
	[ -e "$root$musl" ] || [ -L "$root$musl" ] || continue
	f=$(resolve "$musl") && [ -f "$f" ] || die "$root$musl: a link that leads nowhere in ${root:-/}"
	have=$(sh "$top/scripts/musl/version.sh" "$f" 2>&1) ||
		die "cannot tell which musl $root$musl is ($have): not installing a libc over it"
	[ "$have" = "$want" ] ||
		die "$root$musl is musl $have; this quickbind ($loader) is built on musl $want: build it on $have (make MUSL=$have, or ./configure --musl=PREFIX)"
	[ -n "$root" ] && image="$image $a"
done

for spec in "$@"; do
	a=${spec%%=*}
	mkdir -p "$work/$a"
	split_debug "$build/lib/ld-quickbind-$a.so.1" "$a" "$work/$a"
done

for spec in "$@"; do
	a=${spec%%=*}
	loader=$work/$a/loader
	case " $image " in
	*" $a "*)
		install -m 755 "$loader" "$root/lib/.ld-musl-$a.so.1.new"
		mv -f "$root/lib/.ld-musl-$a.so.1.new" "$root/lib/ld-musl-$a.so.1"
		ln -sfn "ld-musl-$a.so.1" "$root/lib/ld-quickbind-$a.so.1"
		echo "install: $root/lib/ld-musl-$a.so.1 is now quickbind (musl ${spec#*=})" ;;
	*)
		[ -z "$image" ] || continue
		install -D -m 755 "$loader" "$root/lib/ld-quickbind-$a.so.1"
		if [ ! -e "$root/etc/ld-quickbind-$a.path" ]; then
			install -d "$root/etc"
			printf '/lib/%s-linux-musl\n/usr/lib/%s-linux-musl\n%s/lib\n' "$a" "$a" "$prefix" \
				> "$root/etc/ld-quickbind-$a.path"
		fi
		install_debug "$a" "$work/$a" ;;
	esac
done
if [ -z "$image" ] && [ -x "$build/bin/linkopt" ]; then
	install -D -s -m 755 "$build/bin/linkopt" "$root$prefix/bin/linkopt"
	# the wrapper finds linkopt at ../../bin/linkopt, as in the build tree
	install -D -m 755 "$build/lib/linkopt/ld" "$root$prefix/lib/linkopt/ld"
	for l in ld.bfd ld.lld ld.mold; do
		ln -sfn ld "$root$prefix/lib/linkopt/$l"
	done
fi
