#!/bin/sh
# scripts/real/one.sh PROJECT[:ARCH] SUMMARY: build one project of the
# corpus (cached), run its tests under musl, quickbind and quickbind with
# linkopt's tables, append one line per architecture to SUMMARY
#   PROJECT ARCH TESTS MUSL-OK QB-SAME TABLES-SAME SECONDS
# and print every difference. Exit 1 when a build or a step fails.
# Environment: QB_CACHE (default /var/cache/quickbind), REAL_TIMEOUT
# (seconds a test may take, default 600), JOBS (parallel build jobs),
# REAL_PAR=1 (run the three copies' tests at the same time).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/scripts/real
. "$here/lib.sh"
spec=$1 summary=$2
proj=${spec%%:*}
cache=${QB_CACHE:-/var/cache/quickbind}
work=$top/build/real
linkopt=$top/build/bin/linkopt
timeout_s=${REAL_TIMEOUT:-600}
JOBS=${JOBS:-$(nproc)}
export JOBS

[ -f "$here/$proj.sh" ] || die "no recipe scripts/real/$proj.sh"
. "$here/$proj.sh"
want=$archs
case $spec in *:*) want=${spec#*:} ;; esac

# PT_INTERP of a musl program has room for 24 (x86_64) or 22 (i386) bytes:
# quickbind is reached through a short link.
lnk=$(mktemp -d /tmp/qbr.XXXXXX)
trap 'rm -rf "$lnk"' EXIT INT TERM
for a in x86_64 i386; do
	[ -f "$top/build/lib/ld-quickbind-$a.so.1" ] &&
		ln -s "$top/build/lib/ld-quickbind-$a.so.1" "$lnk/$a"
done

# build_tree ARCH: prints the cached built tree, building it when the cache
# holds none built by this recipe.
build_tree() {
	src=$("$top/scripts/debsrc.sh" "$pkg") || die "$proj: cannot fetch the source of $pkg"
	ver=$(basename "$src")
	dir=$cache/$proj-${ver##*-}/$1
	# the build functions alone key the cache (editing the tests reuses
	# it), with the C++ toolchain's configuration for a C++ project, the
	# versions of the other sources a recipe builds ($srcs) and the files
	# of scripts/real/ it reads ($keyfiles)
	key=$({ sed -n '/^build[a-z_0-9]*()/,/^}/p' "$here/$proj.sh"
		[ "$cxx" = 0 ] || cat "$top/scripts/cxx/env.sh"
		for s in $srcs; do "$top/scripts/debsrc.sh" "$s" || die "$proj: cannot fetch the source of $s"; done
		for f in $keyfiles; do cat "$here/$f"; done; } | cksum | cut -d' ' -f1)
	if [ -f "$dir/.built" ] && [ "$(cat "$dir/.built")" = "$key" ]; then
		echo "$dir/tree"; return 0
	fi
	echo "real: building $proj ($ver) for $1" >&2
	# a recipe built in parts (resume=1) keeps its tree and redoes the
	# parts that changed (it owns that logic); any other starts afresh
	rm -f "$dir/.built"
	if [ "$resume" = 0 ] || [ ! -d "$dir/tree" ]; then
		rm -rf "$dir"
		mkdir -p "$dir"
		cp -a "$src" "$dir/tree"
	fi
	b0=$(date +%s)
	# started in the background so that set -e holds inside the recipe
	rc=0
	(set -e; cd "$dir/tree"; CC=$(arch_cc "$1") CXX=$(arch_cxx "$1") ARCH=$1 HOST=$(arch_host "$1") build) \
		> "$dir/build.log" 2>&1 &
	wait $! || rc=$?
	if [ $rc != 0 ]; then
		tail -30 "$dir/build.log" >&2
		die "$proj ($1): build failed (log: $dir/build.log)"
	fi
	echo "real: built $proj for $1 in $(( $(date +%s) - b0 ))s" >&2
	echo "$key" > "$dir/.built"
	echo "$dir/tree"
}

# run_one ROOT NAME N LINE: test N (LINE of the list) in the copy at ROOT;
# results in $res/out-NAME/N.rc and N.out (filtered output).
run_one() {
	out=$res/out-$2
	mkdir -p "$out"
	ldpath=
	for d in $libdirs; do ldpath=$ldpath${ldpath:+:}$1/$d; done
	rc=0
	(cd "$1" && LD_LIBRARY_PATH=$ldpath timeout -k 10 "$timeout_s" sh -c "${4#* }") \
		< /dev/null > "$out/$3.raw" 2>&1 || rc=$?
	echo "$rc" > "$out/$3.rc"
	(cd "$1" && filter) < "$out/$3.raw" > "$out/$3.out"
}

# run_tests ROOT NAME: every test of the list, in the copy at ROOT.
run_tests() {
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		run_one "$1" "$2" "$n" "$line"
	done < "$res/list"
}

# same N L: test N ended under loader copy L as under musl's loader
same() {
	[ "$(cat "$res/out-musl/$1.rc")" = "$(cat "$res/out-$2/$1.rc")" ] &&
		cmp -s "$res/out-musl/$1.out" "$res/out-$2/$1.out"
}

for arch in $want; do
	t0=$(date +%s)
	case " $archs " in *" $arch "*) ;; *) die "$proj is not built for $arch" ;; esac
	[ -e "$lnk/$arch" ] || die "quickbind for $arch is not built"
	tree=$(build_tree "$arch")
	res=$work/$proj-$arch
	rm -rf "$res"
	mkdir -p "$res"
	(cd "$tree" && ARCH=$arch tests) > "$res/list"
	[ -s "$res/list" ] || die "$proj ($arch): no tests listed"
	for l in musl qb tables; do cp -a "$tree" "$res/$l"; done
	elfs=$(elf_files "$res/tables")
	lflags=
	for d in $libdirs; do lflags="$lflags -L $res/tables/$d"; done
	# shellcheck disable=SC2086
	"$linkopt" $lflags $elfs > "$res/linkopt.log" 2>&1 ||
		{ cat "$res/linkopt.log" >&2; die "$proj ($arch): linkopt failed"; }
	for f in $(elf_files "$res/qb") $elfs; do set_interp "$f" "$lnk/$arch"; done
	if [ "${REAL_PAR:-0}" = 1 ]; then
		# the three runs side by side (long suites on a machine with
		# cores to spare; a test that races timers may then differ)
		run_tests "$res/musl" musl & p1=$!
		run_tests "$res/qb" qb & p2=$!
		run_tests "$res/tables" tables & p3=$!
		wait $p1 && wait $p2 && wait $p3
	else
		run_tests "$res/musl" musl
		run_tests "$res/qb" qb
		run_tests "$res/tables" tables
	fi
	# A test that differs runs again under all three copies, one after
	# the other, up to REAL_RETRY (2) more times: a test that races its
	# own timers may end differently from run to run under any loader,
	# musl's own included. It counts as the same when one round agrees
	# under all three; every retry is reported.
	n=0 ok=0 same_qb=0 same_tables=0 retried=
	while IFS= read -r line; do
		n=$((n + 1))
		k=0
		while ! { same $n qb && same $n tables; } && [ $k -lt "${REAL_RETRY:-2}" ]; do
			k=$((k + 1))
			echo "real: $proj ($arch) test ${line%% *} differs; run again under all three ($k)" >&2
			for l in musl qb tables; do run_one "$res/$l" $l $n "$line"; done
		done
		[ $k = 0 ] || retried="$retried ${line%% *}"
		rc=$(cat "$res/out-musl/$n.rc")
		[ "$rc" = 0 ] && ok=$((ok + 1))
		for l in qb tables; do
			if same $n $l; then
				eval "same_$l=\$((same_$l + 1))"
			else
				echo "real: $proj ($arch) test ${line%% *} differs under $l: exit $rc under musl, $(cat "$res/out-$l/$n.rc") under $l" >&2
				echo "  command: ${line#* }" >&2
				diff "$res/out-musl/$n.out" "$res/out-$l/$n.out" | head -20 >&2 || true
			fi
		done
	done < "$res/list"
	[ -z "$retried" ] || echo "real: $proj ($arch) tests run again after a first run that differed:$retried" >&2
	printf '%-17s %-7s %6s %8s %8s %12s %5ss\n' "$proj" "$arch" "$n" "$ok" \
		"$same_qb" "$same_tables" "$(( $(date +%s) - t0 ))" | tee -a "$summary"
done
