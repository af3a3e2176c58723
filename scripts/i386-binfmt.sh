#!/bin/sh
# scripts/i386-binfmt.sh: register qemu-user for i386 programs with the
# binfmt_misc of this process's user namespace (mounted here when it is
# not). 'F': the interpreter is opened now, so it works in chroots and
# for set-uid programs. Used by i386-exec.sh (the machine's own
# namespace) and i386-qemu.sh (a namespace of its own).
# Only the static qemu: a dynamically linked one starts under glibc's
# loader, which reads the i386 program's environment (LD_PRELOAD,
# LD_DEBUG, LD_LIBRARY_PATH) as its own and writes to its stderr.
set -eu
qemu=/usr/bin/qemu-i386-static
[ -x "$qemu" ] || { echo "i386-binfmt.sh: no $qemu (package qemu-user-static)" >&2; exit 1; }
# --private (i386-qemu.sh, in a user namespace of its own): an instance
# of binfmt_misc of that namespace, mounted over the machine's, so that
# the machine's registration is left alone.
bm=/proc/sys/fs/binfmt_misc
if [ "${1:-}" = --private ]; then
	mount -t binfmt_misc binfmt_misc $bm || {
		echo "i386-binfmt.sh: this kernel has no binfmt_misc of a user namespace's own (Linux 6.7 or later)" >&2
		exit 1
	}
else
	[ -e $bm/register ] || mount -t binfmt_misc binfmt_misc $bm
fi
[ -e $bm/qemu-i386 ] && echo -1 > $bm/qemu-i386
# ELF32, little endian, version 1, e_type EXEC or DYN, e_machine 3 (i386).
printf '%s' ":qemu-i386:M::\\x7fELF\\x01\\x01\\x01\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x00\\x02\\x00\\x03\\x00:\\xff\\xff\\xff\\xff\\xff\\xfe\\xfe\\x00\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xff\\xfe\\xff\\xff\\xff:$qemu:F" > $bm/register
