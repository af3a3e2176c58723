# libyaml: a YAML parser and emitter. Tests: test-version and test-reader
# (its `make check`), and the scanner, parser, loader, emitter, dumper and
# example programs of tests/ run over the YAML files the project ships.
pkg=libyaml
archs="x86_64 i386"
libdirs=src

build() {
	defs='-DYAML_VERSION_MAJOR=0 -DYAML_VERSION_MINOR=2 -DYAML_VERSION_PATCH=5
		-DYAML_VERSION_STRING="0.2.5" -DYAML_DECLARE_EXPORT'
	: > src/config.h
	objs=
	for f in api dumper emitter loader parser reader scanner writer; do
		$CC -O2 -fPIC $defs -Iinclude -c -o src/$f.o src/$f.c
		objs="$objs src/$f.o"
	done
	$CC -shared -Wl,-soname,libyaml-0.so.2 -o src/libyaml-0.so.2 $objs
	ln -sf libyaml-0.so.2 src/libyaml.so
	for t in test-version test-reader run-scanner run-parser run-loader run-emitter \
		run-dumper example-reformatter example-reformatter-alt example-deconstructor \
		example-deconstructor-alt run-parser-test-suite run-emitter-test-suite; do
		$CC -O2 $defs -Iinclude -o tests/$t tests/$t.c -Lsrc -lyaml
	done
}

tests() {
	echo "test-version ./tests/test-version"
	echo "test-reader ./tests/test-reader"
	inputs=$(ls examples/*.yaml)
	[ "$ARCH" = x86_64 ] && inputs="$inputs $(ls regression-inputs/* | head -40)"
	for f in $inputs; do
		n=$(basename "$f")
		for t in run-scanner run-parser run-loader; do
			echo "$t/$n ./tests/$t $f"
		done
		[ "$ARCH" = x86_64 ] || continue
		for t in run-emitter run-dumper run-parser-test-suite; do
			echo "$t/$n ./tests/$t $f"
		done
		for t in example-reformatter example-deconstructor example-deconstructor-alt; do
			echo "$t/$n ./tests/$t < $f"
		done
	done
}
