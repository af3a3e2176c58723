# libsodium: a large cryptographic library whose internal random generator
# keeps its state in thread-local storage (general-dynamic TLS in a shared
# library). Tests: test/default, one program per test, each writing NAME.res
# and comparing it with NAME.exp (cmptest.h), as `make check` does.
# Configure is replaced by the definitions it would make on Linux; the
# optional SIMD and assembly variants are left out (the portable code is
# used).
pkg=libsodium
archs="x86_64"
libdirs=lib

build() {
	v=src/libsodium/include/sodium/version.h
	sed -e 's/@VERSION@/1.0.18/' -e 's/@SODIUM_LIBRARY_VERSION_MAJOR@/10/' \
		-e 's/@SODIUM_LIBRARY_VERSION_MINOR@/3/' -e 's/@SODIUM_LIBRARY_MINIMAL_DEF@//' \
		$v.in > $v
	defs="-DCONFIGURED=1 -DNATIVE_LITTLE_ENDIAN=1 -DTLS=__thread -DHAVE_PTHREAD=1
		-DHAVE_SYS_MMAN_H=1 -DHAVE_MMAP=1 -DHAVE_MPROTECT=1 -DHAVE_MLOCK=1
		-DHAVE_MADVISE=1 -DHAVE_POSIX_MEMALIGN=1 -DHAVE_GETPID=1 -DHAVE_NANOSLEEP=1
		-DHAVE_SYS_RANDOM_H=1 -DHAVE_GETRANDOM=1 -DHAVE_CATCHABLE_SEGV=1
		-DHAVE_CATCHABLE_ABRT=1 -DHAVE_WEAK_SYMBOLS=1 -DHAVE_ATOMIC_OPS=1
		-DHAVE_C_VARARRAYS=1 -DHAVE_ALLOCA=1 -DHAVE_ALLOCA_H=1"
	[ "$ARCH" = x86_64 ] && defs="$defs -DHAVE_TI_MODE=1"
	inc="-Isrc/libsodium/include -Isrc/libsodium/include/sodium"
	mkdir -p lib obj
	objs=
	for f in $(find src/libsodium -name '*.c' | sort); do
		o=obj/$(echo "${f#src/libsodium/}" | tr / _ | sed 's/\.c$/.o/')
		$CC -O2 -fPIC -pthread $defs $inc -c -o "$o" "$f"
		objs="$objs $o"
	done
	$CC -shared -pthread -Wl,-soname,libsodium.so.23 -o lib/libsodium.so.23 $objs
	ln -sf libsodium.so.23 lib/libsodium.so
	for t in test/default/*.c; do
		$CC -O2 $defs $inc -Itest/quirks -DTEST_SRCDIR='"."' -o "${t%.c}" "$t" -Llib -lsodium
	done
}

tests() {
	for t in test/default/*.c; do
		n=$(basename "${t%.c}")
		echo "$n cd test/default && ./$n && cat $n.res"
	done
}
