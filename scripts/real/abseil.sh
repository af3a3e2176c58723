# abseil (C++): Abseil 20220623.1, Debian's source (with Debian's patches)
# built the way Debian builds its shared set (CMake, C++17,
# BUILD_SHARED_LIBS, the tests on), with the musl C++ toolchain: some
# seventy libraries that depend on each other in depth (flags on strings,
# synchronization, time, hash, containers), each test program linking
# dozens of them. The tests' googletest is Debian's source of the version
# bookworm ships (srcs), built by abseil's own CMake as shared libraries.
#
# Every shared library goes to lib/ and every test program to bin/, with
# no run path: each copy under test finds its own libraries through
# LD_LIBRARY_PATH. The libraries are built -O2 as Debian builds them; the
# test programs -O0, which halves the build, except the two B-tree tests
# that run for minutes unoptimized.
#
# Tests: every test program of abseil's CMake (what its ctest runs), each a
# test of its own.
pkg=abseil
archs="x86_64 i386"
libdirs=lib
cxx=1
srcs=googletest

build() {
	gtest=$("$top/scripts/debsrc.sh" googletest)
	# Debian's patch links -latomic where the linker finds a use for it;
	# musl has no libatomic and the toolchain's compiler runtime has what
	# the atomics need
	sed -i '/"-latomic"/d' absl/copts/AbseilConfigureCopts.cmake
	cat >> absl/copts/AbseilConfigureCopts.cmake <<-'EOF'
	list(APPEND ABSL_TEST_COPTS -O0)
	EOF
	cat >> CMakeLists.txt <<-'EOF'
	foreach(t absl_btree_test absl_cord_rep_btree_test)
	  target_compile_options(${t} PRIVATE -O2)
	endforeach()
	EOF
	mkdir -p lib bin
	cxx_runtime lib
	cmake -S . -B _build -G Ninja -DCMAKE_CXX_STANDARD=17 -DBUILD_SHARED_LIBS=ON \
		-DBUILD_TESTING=ON -DABSL_BUILD_TESTING=ON -DABSL_USE_GOOGLETEST_HEAD=OFF \
		-DABSL_LOCAL_GOOGLETEST_DIR="$gtest" \
		-DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
		-DCMAKE_BUILD_TYPE=None -DCMAKE_C_FLAGS=-O2 -DCMAKE_CXX_FLAGS=-O2 \
		-DCMAKE_SKIP_RPATH=ON \
		-DCMAKE_LIBRARY_OUTPUT_DIRECTORY="$PWD/lib" \
		-DCMAKE_EXE_LINKER_FLAGS="-Wl,-rpath-link,$PWD/lib" \
		-DCMAKE_SHARED_LINKER_FLAGS="-Wl,-rpath-link,$PWD/lib"
	ninja -C _build -j"$JOBS"
	# abseil's CMake puts the test programs in the build's bin/, and
	# googletest's its libraries in the build's lib/, whatever the
	# output directories say
	cp -a _build/bin/absl_* bin/
	cp -a _build/lib/libgtest*.so* _build/lib/libgmock*.so* lib/
	(cd _build && ctest -N) | sed -n 's/^ *Test *#[0-9]*: *//p' > tests.list
	[ -s tests.list ] || { echo "abseil: ctest lists no test" >&2; exit 1; }
	while read -r t; do
		[ -x "bin/$t" ] || { echo "abseil: test program $t is not in bin/" >&2; exit 1; }
	done < tests.list
	rm -rf _build
}

tests() {
	while read -r t; do
		echo "${t#absl_} bin/$t"
	done < tests.list
}

# googletest's own lines (each test run, its outcome, the totals) without
# their times: what else the tests print is not stable from run to run
# under any loader (the flag tests restore flags in the order of a hash
# map seeded per process, the random distribution tests print their
# samples); a crash still shows in the exit status
filter() {
	grep -E '^\[ *(RUN|OK|FAILED|PASSED|SKIPPED|=+|-+) *\]|DISABLED TEST' |
		sed -e 's/ ([0-9]* ms\( total\)\{0,1\})$//' -e 's/ *$//' -e "s|$PWD|TREE|g"
}
