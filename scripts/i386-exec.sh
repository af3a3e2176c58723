#!/bin/sh
# Make i386 programs executable on this machine. Most x86_64 kernels run
# them natively; some virtual machines (a PVM guest, a kernel without
# IA32 emulation) answer "Exec format error". There the i386 tests run
# under qemu-user, registered with binfmt_misc (i386-binfmt.sh).
# Run as root by deps.sh; idempotent.
set -eu

probe_dir=${TMPDIR:-/tmp}/qb-i386-probe.$$
mkdir -p "$probe_dir"
trap 'rm -rf "$probe_dir"' EXIT
printf 'int main(void){return 42;}\n' > "$probe_dir/p.c"
if ! i386-linux-musl-gcc -static -o "$probe_dir/p" "$probe_dir/p.c" 2>/dev/null; then
	echo "i386-exec.sh: i386-linux-musl-gcc cannot build a test program" >&2
	exit 1
fi
rc=0; "$probe_dir/p" 2>/dev/null || rc=$?
if [ "$rc" = 42 ]; then
	exit 0
fi

if [ "$(id -u)" != 0 ]; then
	echo "i386-exec.sh: this kernel cannot run i386 programs; run as root to register qemu-user for them" >&2
	exit 1
fi
echo "i386-exec.sh: this kernel cannot run i386 programs; registering qemu-i386 with binfmt_misc"
if ! dpkg-query -W -f='${db:Status-Abbrev}' qemu-user-static 2>/dev/null | grep -q '^ii'; then
	"$(dirname "$0")/apt-update.sh"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends qemu-user-static
fi
"$(dirname "$0")/i386-binfmt.sh"
rc=0; "$probe_dir/p" 2>/dev/null || rc=$?
if [ "$rc" != 42 ]; then
	echo "i386-exec.sh: i386 programs still do not run (status $rc)" >&2
	exit 1
fi
echo "i386-exec.sh: i386 programs run under qemu-user"
