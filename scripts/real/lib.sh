# scripts/real/lib.sh: helpers for the real-software corpus, sourced by
# scripts/real/run.sh and by the project recipes it sources.
#
# A recipe (scripts/real/PROJECT.sh) sets
#   pkg      the Debian source package
#   archs    the architectures it is built for (x86_64, i386)
#   libdirs  directories of the build tree holding its shared libraries
# and defines
#   cxx      optional: 1 for a C++ project, built with the
#            project's musl C++ toolchain (scripts/cxx/musl-c++)
#   build    run in a private copy of the source tree; $CC, $ARCH, $HOST,
#            $JOBS (and $CXX for a C++ project) are set; builds the
#            libraries as shared objects and the test programs linked
#            against them
#   tests    run in the built tree; prints one test a line: NAME COMMAND...
#            (COMMAND runs with sh -c in a copy of the tree)
#   srcs     optional: other Debian source packages the build fetches
#            (scripts/debsrc.sh); their versions key the cache
#   keyfiles optional: files of scripts/real/ the build reads; their
#            content keys the cache
#   resume   optional: 1 when the build resumes a failed or outdated tree
#            itself (a stack built in parts), 0 (default) to start afresh
#   filter   optional: stdin to stdout, removes what differs from one run to
#            the next under any loader (times, addresses, process ids)

die() { echo "real: $*" >&2; exit 1; }

# True where the kernel hands i386 programs to qemu-user (scripts/i386-exec.sh)
i386_emulated() {
	[ "$(head -n 1 /proc/sys/fs/binfmt_misc/qemu-i386 2>/dev/null)" = enabled ]
}

# Every dynamically linked ELF executable or shared object under DIR, read
# by one readelf for all files (a process per file is slow on big trees).
elf_files() {
	find "$1" -type f -size +52c -exec readelf -lW /dev/null {} + 2>/dev/null |
		awk '/^File: / { f = substr($0, 7) } /^ *DYNAMIC / && f != "" { print f; f = "" }'
	return 0
}

# set_interp FILE PATH: replace FILE's PT_INTERP string in place by PATH
# (not longer than the old one, NUL-padded), so the program and every
# program it starts run under the loader at PATH. Files without PT_INTERP
# are left alone.
set_interp() {
	hdr=$(readelf -lW "$1" 2>/dev/null | awk '$1 == "INTERP" { print $2, $5; exit }')
	[ -n "$hdr" ] || return 0
	set -- "$1" "$2" $hdr
	off=$(($3)); size=$(($4))
	[ ${#2} -lt "$size" ] || die "$1: PT_INTERP has room for $((size - 1)) bytes, $2 is longer"
	{ printf '%s' "$2"; head -c $((size - ${#2})) /dev/zero; } |
		dd of="$1" bs=1 seek="$off" conv=notrunc status=none
}

# The compiler of each architecture (musl's wrappers).
arch_cc() {
	case $1 in
	x86_64) echo musl-gcc ;;
	i386) echo i386-linux-musl-gcc ;;
	*) die "unknown architecture $1" ;;
	esac
}
arch_host() {
	case $1 in
	x86_64) echo x86_64-linux-musl ;;
	i386) echo i686-linux-musl ;;
	esac
}
musl_ldso() { echo "/lib/ld-musl-$1.so.1"; }

# C++: the compiler wrapper of an architecture, and cxx_runtime DIR, which
# copies the shared C++ runtime (libc++, libc++abi, libunwind) into DIR of
# the tree, where the tests find it and linkopt optimizes it with the rest.
arch_cxx() {
	case $1 in
	x86_64) echo "$top/scripts/cxx/musl-c++" ;;
	i386) echo "$top/scripts/cxx/musl-c++-i386" ;;
	esac
}
cxx_runtime() {
	rt=$("$CXX" --print-runtime-dir) || die "no C++ runtime (scripts/cxx-toolchain.sh)"
	cp "$rt/libc++.so.1" "$rt/libc++abi.so.1" "$rt/libunwind.so.1" "$1/"
}

# Defaults a recipe may override.
filter() { cat; }
libdirs=.
cxx=0
srcs=
keyfiles=
resume=0
