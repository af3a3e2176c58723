# tinyxml2 (C++): an XML library, one shared library used by its test
# program xmltest (hundreds of checks: parsing, DOM editing, printing,
# files written and read back), and xmltest loading each of the project's
# test files. Built with the musl C++ toolchain and its shared runtime.
pkg=tinyxml2
archs="x86_64"
libdirs=lib
cxx=1

build() {
	mkdir -p lib
	$CXX -O2 -fPIC -shared -Wl,-soname,libtinyxml2.so.9 -o lib/libtinyxml2.so.9 tinyxml2.cpp
	ln -sf libtinyxml2.so.9 lib/libtinyxml2.so
	$CXX -O2 -o xmltest xmltest.cpp -Llib -ltinyxml2
	cxx_runtime lib
}

tests() {
	echo "xmltest mkdir -p resources/out && ./xmltest"
	for f in resources/*.xml; do
		echo "load/${f##*/} ./xmltest $f"
	done
}

# xmltest reports how long parsing took.
filter() {
	sed -e 's/^\(Parsing dream.xml ([A-Za-z]*)\): .*/\1/' -e '/^[A-Za-z]* time=[0-9]*$/d'
}
