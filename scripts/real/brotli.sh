# brotli: three libraries that need each other (libbrotlienc and
# libbrotlidec on libbrotlicommon, whose 120 KiB dictionary is read through
# pointers) and the brotli tool. Tests: tests/roundtrip_test.sh and
# tests/compatibility_test.sh, one test per input and quality (Debian's
# source keeps only some of the test data).
pkg=brotli
archs="x86_64 i386"
libdirs=bin

build() {
	mkdir -p bin/obj bin/tmp
	fl="-O2 -fPIC -Ic/include"
	for d in common dec enc; do
		objs=
		for f in c/$d/*.c; do
			o=bin/obj/$d-$(basename "${f%.c}").o
			$CC $fl -c -o "$o" "$f"
			objs="$objs $o"
		done
		deps=; [ $d = common ] || deps="-Lbin -lbrotlicommon"
		$CC -shared -Wl,-soname,libbrotli$d.so.1 -o bin/libbrotli$d.so.1 $objs $deps -lm
		ln -sf libbrotli$d.so.1 bin/libbrotli$d.so
	done
	$CC -O2 -Ic/include -o bin/brotli c/tools/brotli.c -Lbin -lbrotlienc -lbrotlidec -lbrotlicommon -lm
}

tests() {
	inputs="c/enc/encode.c c/common/dictionary.h c/dec/decode.c"
	[ "$ARCH" = i386 ] && inputs=c/dec/decode.c
	for f in $inputs; do
		for q in 1 6 9 11; do
			c=bin/tmp/${f##*/}.br u=bin/tmp/${f##*/}.unbr
			echo "roundtrip-${f##*/}-q$q bin/brotli -fq $q $f -o $c && bin/brotli $c -fdo $u && diff -q $f $u && cksum < $c && cat $f | bin/brotli -cq $q | bin/brotli -cd > $u && diff -q $f $u"
		done
	done
	for f in tests/testdata/*.compressed*; do
		e=${f%.compressed*} u=bin/tmp/${f##*/}.uncompressed
		echo "compatibility-${f##*/} bin/brotli $f -fdo $u && diff -q $u $e && cat $f | bin/brotli -dc > $u && diff -q $u $e"
	done
}
