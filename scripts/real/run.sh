#!/bin/sh
# scripts/real/run.sh [PROJECT[:ARCH]...]: the real-software corpus.
#
# Each project (scripts/real/PROJECT.sh, listed in scripts/real/projects)
# is fetched from Debian's source archive (scripts/debsrc.sh), built with
# musl-gcc as shared libraries and test programs linked against them, and
# its own tests run three times (scripts/real/one.sh):
#   musl    the build as it is, under musl's loader (the reference)
#   qb      the same files with PT_INTERP naming quickbind
#   tables  the same files after linkopt, PT_INTERP naming quickbind
# A test is identical when its exit status and its output are the ones it
# had under musl. Any difference, or a project that does not build, fails
# the run. Prints one line per project and architecture. "dist" (last in
# the list) is the programs built by a musl distribution, scripts/real/dist.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/scripts/real
work=$top/build/real
mkdir -p "$work"

[ -x "$top/build/bin/linkopt" ] || { echo "real: build/bin/linkopt missing: run make first" >&2; exit 1; }

if [ $# = 0 ]; then
	set -- $(grep -v '^#' "$here/projects")
fi

summary=$work/summary
: > "$summary"
: > "$work/skipped"
t0=$(date +%s)
broken=
for spec in "$@"; do
	case $spec in
	# programs built by a musl distribution (scripts/real/dist.sh)
	dist) "$here/dist.sh" "$summary" || broken="$broken $spec" ;;
	dist:*) "$here/dist.sh" "$summary" "${spec#dist:}" || broken="$broken $spec" ;;
	*) "$here/one.sh" "$spec" "$summary" || broken="$broken $spec" ;;
	esac
done

echo
echo "tests: run per project; musl-ok: passed under musl's loader; qb=musl, tables=musl:"
echo "same exit status and output under quickbind, and quickbind after linkopt, as under musl"
printf '%-17s %-7s %6s %8s %8s %12s %6s\n' project arch tests musl-ok qb=musl tables=musl time
cat "$summary"
pass=0 fail=0 nt=0 nok=0 nq=0 ntab=0 np=0
while read -r p a n ok q t s; do
	np=$((np + 1)) nt=$((nt + n)) nok=$((nok + ok)) nq=$((nq + q)) ntab=$((ntab + t))
	pass=$((pass + q + t)); fail=$((fail + 2 * n - q - t))
done < "$summary"
printf '%-17s %-7s %6s %8s %8s %12s\n' "all ($np)" "" "$nt" "$nok" "$nq" "$ntab"
for b in $broken; do
	echo "real: $b did not complete (see above)"
	fail=$((fail + 1))
done
echo "real: $(( $(date +%s) - t0 ))s in all"
nskip=$(wc -l < "$work/skipped")
[ "$nskip" = 0 ] || sed 's/^/real: /' "$work/skipped"
echo "check-real: $pass passed, $fail failed, $nskip programs skipped"
[ "$fail" = 0 ]
