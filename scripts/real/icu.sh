# icu (C++): International Components for Unicode 72.1, a large C++
# program with big shared libraries. Debian's source (icu4c's
# source/ at the top of the tree, with Debian's patches) built with the
# musl C++ toolchain (scripts/cxx/musl-c++; C files with musl-gcc) the way
# Debian builds it: configure, --disable-layoutex, libraries linked
# -Bsymbolic by ICU's own rules (config/mh-linux). It gives libicudata (the
# prebuilt data archive of data/in, packaged as a shared library by ICU's
# pkgdata: 31 MB), libicuuc, libicui18n, libicuio, libicutu and libicutest,
# ICU's tools (uconv, icuinfo, genrb, derb, makeconv, icupkg, ...; run at
# build time too, under musl's loader) and its three test programs,
# intltest (C++), cintltst (C API) and iotest. No native build is needed:
# the tools the build runs are musl programs this machine runs.
#
# Tests: every top-level group of intltest and cintltst as a test of its
# own (the whole of both suites, no exhaustive mode: what ICU's make check
# runs), iotest, and the tools on the project's test data. The test
# programs are built with U_TOPBUILDDIR relative to their directory (ICU's
# makefiles give them the absolute path of the build tree), so each copy
# under test reads its own data.
pkg=icu
archs="x86_64 i386"
libdirs="source/lib source/tools/ctestfw"
cxx=1

build() {
	cd source
	# the runtime first: the tools run during the build (ICU's INVOKE puts
	# lib/ in LD_LIBRARY_PATH)
	mkdir -p lib
	cxx_runtime lib
	./configure --host="$HOST" CC="$CC" CXX="$CXX" CFLAGS=-O2 CXXFLAGS=-O2 \
		--disable-static --enable-shared --disable-layoutex --disable-icu-config \
		--disable-samples --enable-tools --enable-extras --enable-tests
	make -j"$JOBS"
	make -C test/testdata
	for d in intltest iotest cintltst; do
		make -j"$JOBS" -C test/$d BUILDDIR=../../
	done
	# what the tests do not need: objects, the packaged data's
	# intermediate files (the .dat, its 100 MB assembly source), and the
	# stub data library (lib/ holds the real one under the same soname)
	rm -rf data/out/tmp
	rm -f stubdata/libicudata.so*
	find . -name '*.o' -delete
}

intltest_groups="utility normalize collate regex format translit rbbi rbnf rbnfrt icuserv idna
convert rbnfp csdet spoof bidi"
cintltst_groups="tsconv udatatst hpmufn utf16tst utf8tst tsutil custrtrn ucsdetst complex uset
spreptst idna regex tstxtbd tsformat tscoll tsnorm utrans uspoof putiltst"

tests() {
	for g in $intltest_groups; do
		echo "intltest-$g cd source/test/intltest && ./intltest $g"
	done
	for g in $cintltst_groups; do
		echo "cintltst-$g cd source/test/cintltst && ./cintltst /$g"
	done
	echo "iotest cd source/test/iotest && ./iotest"
	# the tools: libicutu (genrb, derb, makeconv, icupkg), libicuio (derb)
	t=source/test/testdata
	echo "icuinfo source/tools/icuinfo/icuinfo"
	echo "uconv-list source/bin/uconv -l"
	echo "uconv-roundtrip for e in utf-16 utf-32 gb18030 shift_jis euc-kr iso-2022-jp ibm-37 scsu bocu-1; do" \
		"source/bin/uconv -f utf-8 -t \$e --callback substitute $t/ConverterSelectorTestUTF8.txt |" \
		"source/bin/uconv -f \$e -t utf-8 --callback substitute | cksum; done"
	echo "uconv-translit source/bin/uconv -f utf-8 -t utf-8 -x 'Any-Latin; Latin-ASCII' $t/ConverterSelectorTestUTF8.txt"
	# derb's error about the missing resource the test data asks for goes
	# after its dump: written as it comes, it lands where stdout's buffer
	# happens to end, which moves with the length of the copy's path
	echo "genrb-derb rm -rf tmp-res && mkdir tmp-res && source/bin/genrb -q -s $t -d tmp-res te.txt testtypes.txt root.txt &&" \
		"cksum tmp-res/*.res && { source/bin/derb -c -s \$PWD/tmp-res te.res root.res 2>derb.err; r=\$?; cat derb.err; exit \$r; }"
	echo "makeconv rm -rf tmp-cnv && mkdir tmp-cnv && source/bin/makeconv -d tmp-cnv $t/ibm9027.ucm $t/test1.ucm && cksum tmp-cnv/*"
	echo "icupkg source/bin/icupkg -l $t/out/testdata.dat"
}

# the suites print how long each test and group ran (past 110 seconds as
# "[(1m 52.0s)]"), and derb the path of the copy it reads
filter() {
	sed -e 's/ *(\{1,2\} *[0-9][0-9.:]* *m\{0,1\}s *)\{1,2\}//g' -e 's/ *\[([0-9]*m [0-9.]*s)\]//g' \
		-e 's/^Elapsed Time: .*/Elapsed Time: T/' \
		-e 's/ *$//' -e "s|$PWD|TREE|g"
}
