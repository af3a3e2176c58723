#!/bin/sh
# scripts/image/assemble.sh LOADER ROOT: lay out a small musl root
# filesystem in ROOT (made anew) from the parts build-parts.sh built, as a
# musl distribution ships it:
#   /lib/ld-musl-x86_64.so.1        musl's libc and loader (PT_INTERP of
#                                   every program)
#   /lib/libc.musl-x86_64.so.1      -> ld-musl-x86_64.so.1 (the name
#                                      musl distributions' programs need)
#   /usr/bin/ldd                    -> /lib/ld-musl-x86_64.so.1
#   /etc/ld-musl-x86_64.path        the library path
# Every program and library names libc as libc.musl-x86_64.so.1, as
# programs built on a musl distribution do. LOADER is musl's own (the
# reference image) or quickbind's, which is then installed into the image
# the way `make install DESTDIR=ROOT` does it (scripts/install.sh: over
# /lib/ld-musl-x86_64.so.1, refused if built on another musl).
# IMAGE_CC, IMAGE_MUSL_LDSO: the musl the userland is built with and whose
# loader the image ships (default Debian's musl-gcc, /lib/ld-musl-x86_64.so.1).
set -eu
loader=$1 root=$2
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
musl_ldso=${IMAGE_MUSL_LDSO:-/lib/ld-musl-x86_64.so.1}
IMAGE_MUSL=$(sh "$top/scripts/musl/version.sh" "$musl_ldso")
export IMAGE_MUSL
parts=$("$here/build-parts.sh")
part() { echo "$parts" | sed -n "s/^$1=//p"; }

# a quickbind loader names the musl it is built on; musl's own does not
qb=""
if tr '\0' '\n' < "$loader" | grep -q '^quickbind-musl-base='; then
	qb=$(sh "$top/scripts/musl/version.sh" "$loader")
	build=$(cd "$(dirname "$loader")/.." && pwd)
	[ "$build/lib/ld-quickbind-x86_64.so.1" -ef "$loader" ] ||
		{ echo "assemble.sh: $loader is not a build's lib/ld-quickbind-x86_64.so.1" >&2; exit 1; }
	loader=$musl_ldso
fi

rm -rf "$root"
mkdir -p "$root/bin" "$root/lib" "$root/usr/bin" "$root/usr/lib/lua/5.4" \
	"$root/etc" "$root/tmp" "$root/proc" "$root/dev" "$root/root"
chmod 1777 "$root/tmp"
# The root needs no device node: a container runtime mounts its own /dev,
# and scripts/image/chroot.sh gives a chroot the host's /dev/null. Where
# the kernel lets this builder make one (root outside a user namespace),
# /dev/null is there for a plain chroot too; elsewhere (an ordinary user,
# rootless podman or buildah, any user namespace) it is left out.
if ! mknod -m 666 "$root/dev/null" c 1 3 2>/dev/null; then
	echo "assemble.sh: no $root/dev/null (device nodes cannot be made here); chroot with scripts/image/chroot.sh, or let the container runtime provide /dev" >&2
fi
install -m 755 "$loader" "$root/lib/ld-musl-x86_64.so.1"
ln -s ld-musl-x86_64.so.1 "$root/lib/libc.musl-x86_64.so.1"
ln -s /lib/ld-musl-x86_64.so.1 "$root/usr/bin/ldd"
printf '/lib\n/usr/lib\n' > "$root/etc/ld-musl-x86_64.path"

bb=$(part busybox) z=$(part zlib) lua=$(part lua)
install -m 755 "$bb/busybox" "$root/bin/busybox"
install -m 755 "$z/libz.so.1" "$root/usr/lib/libz.so.1"
install -m 755 "$z/minigzip" "$z/zexample" "$root/usr/bin/"
install -m 755 "$lua/liblua5.4.so.0" "$root/usr/lib/"
install -m 755 "$lua/lua" "$root/usr/bin/lua"
install -m 755 "$lua/qbmod.so" "$root/usr/lib/lua/5.4/qbmod.so"

for f in "$root/bin/busybox" "$root/usr/lib/libz.so.1" "$root/usr/bin/minigzip" \
	"$root/usr/bin/zexample" "$root/usr/lib/liblua5.4.so.0" "$root/usr/bin/lua" \
	"$root/usr/lib/lua/5.4/qbmod.so"; do
	if readelf -dW "$f" | grep -q 'NEEDED.*\[libc\.so\]'; then
		patchelf --replace-needed libc.so libc.musl-x86_64.so.1 "$f"
	fi
done

# The applets, as busybox --install -s would make them (it runs here
# under musl's loader, not inside the image).
"$musl_ldso" "$root/bin/busybox" --list-full | while read -r a; do
	case $a in bin/busybox) continue ;; esac
	[ -e "$root/$a" ] || { mkdir -p "$root/$(dirname "$a")"; ln -s /bin/busybox "$root/$a"; }
done
echo "root:x:0:0:root:/root:/bin/sh" > "$root/etc/passwd"
echo "root:x:0:" > "$root/etc/group"

[ -z "$qb" ] || sh "$top/scripts/install.sh" "$build" "$root" /usr "x86_64=$qb" >/dev/null
