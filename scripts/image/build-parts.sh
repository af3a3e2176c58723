#!/bin/sh
# scripts/image/build-parts.sh: build the real software of the musl image
# (busybox, zlib with minigzip, Lua with its shared library) with musl-gcc
# from Debian's sources, once: the results are cached under
# $QB_CACHE/build/image-x86_64/<name>-<version>-<recipe>/ and a second call only
# prints the cache directories. Prints "name=dir" lines.
# IMAGE_CC: another musl's compiler (make image MUSL=VERSION), whose
# builds are cached apart, under image-x86_64-musl-VERSION (IMAGE_MUSL).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=${QB_CACHE:-/var/cache/quickbind}
cc=${IMAGE_CC:-musl-gcc}
if [ -n "${IMAGE_CC:-}" ]; then
	out=$cache/build/image-x86_64-musl-${IMAGE_MUSL:?IMAGE_MUSL names the version of IMAGE_CC\'s musl}
	# its programs run in the image, where musl's loader is in /lib
	cc="$cc -Wl,--dynamic-linker=/lib/ld-musl-x86_64.so.1"
else
	out=$cache/build/image-x86_64
fi
mkdir -p "$out"
# One build at a time: make -j runs the image fixtures side by side, and
# both would fetch and build into the same cache directories.
# A cache another user filled (an ordinary user building on root's
# cache) is read under a shared open of the lock; flock needs no write.
if [ -w "$out" ]; then
	exec 9>>"$out/.lock"
elif [ -r "$out/.lock" ]; then
	exec 9<"$out/.lock"
else
	echo "build-parts.sh: cannot write $out: set QB_CACHE to a directory of your own" >&2
	exit 1
fi
flock 9
# A change to this recipe or to the module source rebuilds everything.
recipe=$(cat "$0" "$top/tests/image/qbmod.c" | cksum | cut -d' ' -f1)

# musl-gcc's include path has no Linux UAPI headers; programs that need
# them (busybox) get the host's through a small include directory.
kh=$out/kernel-headers
if [ ! -d "$kh" ]; then
	mkdir -p "$kh.tmp"
	for d in linux asm-generic mtd; do ln -sfn "/usr/include/$d" "$kh.tmp/$d"; done
	ln -sfn /usr/include/x86_64-linux-gnu/asm "$kh.tmp/asm"
	mv "$kh.tmp" "$kh"
fi

# build NAME PACKAGE FUNCTION: run FUNCTION in a scratch copy of the
# package source unless $out/NAME-VERSION/ is complete (it has .done).
build() {
	name=$1 pkg=$2 fn=$3
	src=$("$top/scripts/debsrc.sh" "$pkg")
	dest=$out/$name-$(basename "$src")-$recipe
	if [ ! -f "$dest/.done" ]; then
		echo "build-parts.sh: building $name from $(basename "$src") (once)" >&2
		rm -rf "$dest" "$dest.work"
		mkdir -p "$dest"
		cp -a "$src" "$dest.work"
		(cd "$dest.work" && $fn "$dest") >"$dest.log" 2>&1 || {
			echo "build-parts.sh: $name failed; log: $dest.log" >&2; tail -20 "$dest.log" >&2; exit 1; }
		rm -rf "$dest.work"
		touch "$dest/.done"
	fi
	echo "$name=$dest"
}

busybox_fn() {
	make defconfig
	# Traffic control needs kernel headers musl's toolchain lacks; the
	# image is dynamically linked like a distribution's.
	sed -i -e 's/^CONFIG_STATIC=y/# CONFIG_STATIC is not set/' \
		-e 's/^CONFIG_TC=y/# CONFIG_TC is not set/' \
		-e 's/^CONFIG_FEATURE_TC_INGRESS=y/# CONFIG_FEATURE_TC_INGRESS is not set/' .config
	make -j2 CC="$cc -isystem $kh" HOSTCC=gcc busybox
	cp busybox "$1/"
}

zlib_fn() {
	core="adler32.c crc32.c deflate.c infback.c inffast.c inflate.c inftrees.c trees.c zutil.c compress.c uncompr.c gzclose.c gzlib.c gzread.c gzwrite.c"
	$cc -O2 -fPIC -shared -Wl,-soname,libz.so.1 -o "$1/libz.so.1" $core
	$cc -O2 -I. -o "$1/minigzip" test/minigzip.c "$1/libz.so.1"
	$cc -O2 -I. -o "$1/zexample" test/example.c "$1/libz.so.1"
	# The same library rebuilt with one more exported function: what a
	# distribution update does to a library the image's tables name.
	echo 'int zlib_rebuilt_marker(void) { return 1; }' > marker.c
	$cc -O2 -fPIC -shared -Wl,-soname,libz.so.1 -o "$1/libz-rebuilt.so.1" $core marker.c
}

lua_fn() {
	cd src
	# Debian's module-path patch reads the multiarch triplet from a
	# generated header; the image's modules live in /usr/lib/lua/5.4.
	echo '#define DEB_HOST_MULTIARCH "x86_64-linux-musl"' > lua5.4-deb-multiarch.h
	objs=$(ls l*.c | grep -v -e '^lua\.c$' -e '^luac\.c$')
	$cc -O2 -fPIC -DLUA_USE_LINUX -shared -Wl,-soname,liblua5.4.so.0 -o "$1/liblua5.4.so.0" $objs -lm
	$cc -O2 -DLUA_USE_LINUX -o "$1/lua" lua.c "$1/liblua5.4.so.0" -lm
	# A C extension module, loaded by require() through dlopen; it takes
	# every lua_* symbol from the interpreter's library.
	$cc -O2 -fPIC -shared -I. -o "$1/qbmod.so" "$top/tests/image/qbmod.c"
}

build busybox busybox busybox_fn
build zlib zlib zlib_fn
build lua lua5.4 lua_fn
