# jansson: a JSON library with a symbol-version script (JANSSON_4, as its
# CMake build writes it). Tests: the API suite (one program per test) and
# the valid/invalid/encoding suites, each input run through json_process
# as test/suites/*/run does (normal and stripped variants), its output
# compared with the expected file (on i386 the API and encoding suites).
pkg=jansson
archs="x86_64 i386"
libdirs=src

build() {
	sed -e 's/@json_inline@/inline/' -e 's/@json_have_long_long@/1/' \
		-e 's/@json_have_localeconv@/1/' -e 's/@json_have_atomic_builtins@/1/' \
		-e 's/@json_have_sync_builtins@/1/' src/jansson_config.h.in > src/jansson_config.h
	: > src/jansson_private_config.h
	printf 'JANSSON_4 {\n\tglobal: *;\n};\n' > src/jansson.sym
	defs="-DHAVE_STDINT_H -DHAVE_UNISTD_H -DHAVE_FCNTL_H -DHAVE_SCHED_H -DHAVE_SYS_STAT_H
		-DHAVE_SYS_TIME_H -DHAVE_SYS_TYPES_H -DHAVE_OPEN -DHAVE_CLOSE -DHAVE_READ
		-DHAVE_GETTIMEOFDAY -DHAVE_GETPID -DHAVE_ATOMIC_BUILTINS -DHAVE_SCHED_YIELD
		-DUSE_URANDOM -DHAVE_LOCALE_H -DHAVE_SETLOCALE -DHAVE_INTTYPES_H"
	objs=
	for f in dump error hashtable hashtable_seed load memory pack_unpack strbuffer \
		strconv utf value version; do
		$CC -O2 -fPIC $defs -Isrc -c -o src/$f.o src/$f.c
		objs="$objs src/$f.o"
	done
	$CC -shared -Wl,-soname,libjansson.so.4 -Wl,--version-script,src/jansson.sym \
		-o src/libjansson.so.4 $objs
	ln -sf libjansson.so.4 src/libjansson.so
	for t in test/suites/api/test_*.c; do
		$CC -O2 $defs -Isrc -o "${t%.c}" "$t" -Lsrc -ljansson
	done
	$CC -O2 $defs -Isrc -o test/bin/json_process test/bin/json_process.c -Lsrc -ljansson
}

tests() {
	for t in test/suites/api/test_*.c; do
		echo "api/$(basename "${t%.c}") ./${t%.c}"
	done
	# i386 runs under emulation here: the API suite and the encoding flags
	[ "$ARCH" = i386 ] && suites= || suites="valid invalid invalid-unicode"
	for d in $(for s in $suites; do echo test/suites/$s/*; done); do
		[ -d "$d" ] || continue
		case $d in */valid/*) kind=output ;; *) kind=error ;; esac
		for v in normal strip; do
			[ $v = strip ] && [ -f "$d/nostrip" ] && continue
			strip=0; [ $v = strip ] && strip=1
			ref=$kind; [ -f "$d/$kind.$v" ] && ref=$kind.$v
			o=$d/run.$v
			echo "${d#test/suites/}-$v JSON_SORT_KEYS=1 STRIP=$strip ./test/bin/json_process --env < $d/input > $o.output 2> $o.error; echo status \$?; cat $o.output $o.error; cmp $o.$kind $d/$ref"
		done
	done
	for d in test/suites/encoding-flags/*; do
		[ -d "$d" ] || continue
		echo "${d#test/suites/} (if [ -f $d/env ]; then . $d/env; fi; ./test/bin/json_process --env < $d/input > $d/run.output); echo status \$?; cat $d/run.output; cmp $d/run.output $d/output"
	done
}
