# pugixml (C++): an XML and XPath library, one shared library, and the
# project's test runner (tests/*.cpp as its Makefile builds it: hundreds of
# tests registered by static constructors, exceptions thrown through the
# library, each test run again with allocators that fail). Built with the
# musl C++ toolchain and its shared runtime.
pkg=pugixml
archs="x86_64"
libdirs=lib
cxx=1

build() {
	mkdir -p lib obj
	$CXX -O2 -fPIC -shared -Wl,-soname,libpugixml.so.1 -o lib/libpugixml.so.1 src/pugixml.cpp
	ln -sf libpugixml.so.1 lib/libpugixml.so
	ls tests/*.cpp | grep -v '/fuzz_' |
		xargs -P "$JOBS" -I{} sh -c 'f={}; $0 -O1 -c -o obj/$(basename "${f%.cpp}").o "$f"' "$CXX"
	$CXX -o pugixml-test obj/*.o -Llib -lpugixml
	cxx_runtime lib
}

tests() {
	echo "suite ./pugixml-test"
}
