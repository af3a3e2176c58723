# double-conversion (C++): binary-decimal conversion of floating point, a
# shared library with large tables of cached powers, and its cctest suite
# (the tests register themselves from static constructors of the test
# program); each test run on its own, as `cctest FILE/NAME`.
pkg=double-conversion
archs="x86_64"
libdirs=lib
cxx=1

build() {
	mkdir -p lib obj
	objs=
	for f in double-conversion/*.cc; do
		o=obj/$(basename "${f%.cc}").o
		$CXX -O2 -fPIC -I. -c -o "$o" "$f"
		objs="$objs $o"
	done
	$CXX -shared -Wl,-soname,libdouble-conversion.so.3 -o lib/libdouble-conversion.so.3 $objs
	ln -sf libdouble-conversion.so.3 lib/libdouble-conversion.so
	ls test/cctest/*.cc | xargs -P "$JOBS" -I{} sh -c 'f={}; $0 -O2 -I. -c -o obj/t-$(basename "${f%.cc}").o "$f"' "$CXX"
	$CXX -o cctest obj/t-*.o -Llib -ldouble-conversion
	cxx_runtime lib
}

tests() {
	for f in test/cctest/test-*.cc; do
		b=$(basename "${f%.cc}")
		for t in $(sed -n 's/^TEST(\([A-Za-z0-9_]*\)).*/\1/p' "$f"); do
			echo "$b/$t ./cctest $b/$t"
		done
	done
}
