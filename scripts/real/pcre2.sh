# pcre2: a large regular-expression library with a JIT compiler (code
# written to executable memory at run time) and a second library on top of
# it (libpcre2-posix). Tests: the project's RunTest (every test, each run
# interpreted and with the JIT), RunGrepTest, pcre2_jit_test and
# pcre2posix_test, as `make check` runs them.
pkg=pcre2
archs="x86_64"
libdirs=.

build() {
	cp src/config.h.generic src/config.h
	cp src/pcre2.h.generic src/pcre2.h
	cp src/pcre2_chartables.c.dist src/pcre2_chartables.c
	defs="-DHAVE_CONFIG_H -DPCRE2_CODE_UNIT_WIDTH=8 -DSUPPORT_PCRE2_8 -DSUPPORT_UNICODE
		-DSUPPORT_JIT -DSUPPORT_PCRE2GREP_JIT -DSUPPORT_PCRE2GREP_CALLOUT
		-DSUPPORT_PCRE2GREP_CALLOUT_FORK -DHAVE_STDINT_H -DHAVE_INTTYPES_H
		-DHAVE_UNISTD_H -DHAVE_STDLIB_H -DHAVE_STRING_H -DHAVE_LIMITS_H -DHAVE_DIRENT_H
		-DHAVE_SYS_STAT_H -DHAVE_SYS_TYPES_H -DHAVE_SYS_WAIT_H -DHAVE_MEMMOVE
		-DHAVE_STRERROR -DHAVE_DLFCN_H -DHAVE_REALPATH -DHAVE_MKOSTEMP
		-DHAVE_SECURE_GETENV -DHAVE_PTHREAD -DHAVE_MEMFD_CREATE -DHAVE_ATTRIBUTE_UNINITIALIZED"
	objs=
	for f in auto_possess chartables compile config context convert dfa_match error \
		extuni find_bracket jit_compile maketables match match_data newline ord2utf \
		pattern_info script_run serialize string_utils study substitute substring \
		tables ucd valid_utf xclass; do
		$CC -O2 -fPIC $defs -Isrc -c -o src/pcre2_$f.o src/pcre2_$f.c
		objs="$objs src/pcre2_$f.o"
	done
	$CC -shared -pthread -Wl,-soname,libpcre2-8.so.0 -o libpcre2-8.so.0 $objs
	ln -sf libpcre2-8.so.0 libpcre2-8.so
	$CC -O2 -fPIC $defs -Isrc -c -o src/pcre2posix.o src/pcre2posix.c
	$CC -shared -Wl,-soname,libpcre2-posix.so.3 -o libpcre2-posix.so.3 src/pcre2posix.o -L. -lpcre2-8
	ln -sf libpcre2-posix.so.3 libpcre2-posix.so
	$CC -O2 $defs -Isrc -o pcre2test src/pcre2test.c -L. -lpcre2-posix -lpcre2-8
	$CC -O2 $defs -Isrc -o pcre2grep src/pcre2grep.c -L. -lpcre2-8
	$CC -O2 $defs -Isrc -o pcre2_jit_test src/pcre2_jit_test.c -L. -lpcre2-8 -pthread
	$CC -O2 $defs -Isrc -o pcre2posix_test src/pcre2posix_test.c -L. -lpcre2-posix -lpcre2-8
}

tests() {
	for t in $(seq 0 26) heap; do
		echo "RunTest-$t ./RunTest $t"
	done
	echo "RunGrepTest ./RunGrepTest"
	echo "jit_test ./pcre2_jit_test"
	echo "posix_test ./pcre2posix_test -v"
}

# RunTest and RunGrepTest show a failing comparison with diff -u, whose
# header holds the time the output file was written.
filter() {
	sed -e 's/^\(+++ [^	]*\)	.*/\1/' -e 's/^\(--- [^	]*\)	.*/\1/'
}
