# python: CPython 3.11 as the python:*-alpine images build it, the most
# run musl program in containers. Debian's python3.11 source (with its
# patches) built with musl-gcc, --enable-shared: the program is a stub over
# libpython3.11.so, every extension module outside the core is a shared
# object in lib-dynload that import dlopens (RTLD_NOW, local scope), and
# the modules take the interpreter's API from the program's global scope
# (they do not name libpython). The libraries the modules need are
# Debian's sources built with musl-gcc as shared libraries into the
# install prefix, stage/ of the tree: zlib, bzip2, xz (liblzma), libffi
# (ctypes), sqlite3, ncurses (wide) and readline, OpenSSL 3.0 (_ssl,
# _hashlib). expat and mpdecimal are CPython's bundled copies. The tree
# keeps stage/ alone: the tests run the installed interpreter, whose
# prefix is found from its own path, so each copy under test runs its own
# standard library and modules.
#
# Left out: tkinter (no X or Tk for musl here), _dbm and _gdbm (no
# Berkeley DB or gdbm built; dbm falls back to dbm.dumb), _uuid (no
# libuuid; uuid has its pure Python code), nis (no libnsl), _crypt
# (Debian's musl has no crypt), ensurepip (no network). The tests that
# need them skip.
#
# Built in parts, as the GStreamer stack: each build_PART leaves a stamp
# holding the checksum of itself and of the parts before it, and a rebuild
# after an edit (resume=1) redoes only the parts from the first one that
# changed.
pkg=python3.11
srcs="zlib bzip2 xz-utils libffi sqlite3 ncurses readline openssl"
archs="x86_64 i386"
libdirs=stage/lib
resume=1
parts="zlib bz2 xz ffi sqlite ncurses readline ssl python extra"

build() {
	stage=$PWD/stage
	mkdir -p "$stage/lib/pkgconfig" "$stage/include" "$stage/kinc"
	# the kernel's UAPI headers alone (linux/, asm/, asm-generic/), never
	# glibc's, searched after musl's (musl-gcc's specs drop /usr/include);
	# the x86 asm headers serve both architectures
	for d in linux asm-generic; do ln -sfn /usr/include/$d "$stage/kinc/$d"; done
	ln -sfn /usr/include/x86_64-linux-gnu/asm "$stage/kinc/asm"
	CFLAGS="-O2 -idirafter $stage/kinc"
	# pkg-config sees the stage only: a glibc library of the system would
	# break the link or mix two libcs in one program
	PKG_CONFIG_LIBDIR=$stage/lib/pkgconfig PKG_CONFIG_PATH=
	export PKG_CONFIG_LIBDIR PKG_CONFIG_PATH
	# each part builds on the headers and libraries the parts before it
	# installed: a tree without them (cleaned by an older recipe) starts
	# again from the first
	[ -f "$stage/include/zlib.h" ] || rm -f .part-*
	sum=$(sed -n -e '/^debsrc()/,/^}/p' -e '/^pcfile()/,/^}/p' "$here/python.sh" | cksum | cut -d' ' -f1)
	for p in $parts; do
		sum=$({ echo "$sum"; sed -n "/^build_$p()/,/^}/p" "$here/python.sh"; } | cksum | cut -d' ' -f1)
		[ "$(cat ".part-$p" 2>/dev/null)" = "$sum" ] && continue
		echo "python: building part $p"
		rm -f ".part-$p"
		(set -e; "build_$p")
		echo "$sum" > ".part-$p"
	done
	# the tree under test is the stage: the sources and build directories
	# (the build's own libpython and modules would double linkopt's work
	# and the copies) and static archives go; the headers stay for a
	# rebuild of a later part
	find . -mindepth 1 -maxdepth 1 ! -name stage ! -name '.part-*' -exec rm -rf {} +
	rm -rf "$stage/share/man"
	find "$stage" -name '*.a' -delete
}

# debsrc PACKAGE DIR: a fresh copy of a Debian source tree at DIR.
debsrc() {
	s=$("$top/scripts/debsrc.sh" "$1")
	rm -rf "$2"
	cp -a "$s" "$2"
}

# pcfile NAME VERSION LIBS: a pkg-config file for a library built by hand.
pcfile() {
	printf '%s\n' "prefix=$stage" 'libdir=${prefix}/lib' 'includedir=${prefix}/include' \
		"Name: $1" "Description: $1" "Version: $2" "Libs: -L\${libdir} $3" \
		'Cflags: -I${includedir}' > "$stage/lib/pkgconfig/$1.pc"
}

build_zlib() {
	debsrc zlib zlib
	cd zlib
	for f in adler32 crc32 deflate infback inffast inflate inftrees trees zutil \
		compress uncompr gzclose gzlib gzread gzwrite; do
		$CC $CFLAGS -fPIC -D_LARGEFILE64_SOURCE=1 -DHAVE_HIDDEN -c -o $f.o $f.c
	done
	$CC -shared -Wl,-soname,libz.so.1 -Wl,--version-script,zlib.map -o "$stage/lib/libz.so.1.2.13" *.o
	ln -sf libz.so.1.2.13 "$stage/lib/libz.so.1"
	ln -sf libz.so.1 "$stage/lib/libz.so"
	cp zlib.h zconf.h "$stage/include/"
	pcfile zlib 1.2.13 -lz
}

build_bz2() {
	debsrc bzip2 bz2
	cd bz2
	for f in blocksort huffman crctable randtable compress decompress bzlib; do
		$CC $CFLAGS -fPIC -D_FILE_OFFSET_BITS=64 -c -o $f.o $f.c
	done
	$CC -shared -Wl,-soname,libbz2.so.1.0 -o "$stage/lib/libbz2.so.1.0.4" *.o
	ln -sf libbz2.so.1.0.4 "$stage/lib/libbz2.so.1.0"
	ln -sf libbz2.so.1.0 "$stage/lib/libbz2.so"
	cp bzlib.h "$stage/include/"
	pcfile bzip2 1.0.8 -lbz2
}

build_xz() {
	debsrc xz-utils xz
	cd xz
	./configure -q --host="$HOST" CC="$CC" CFLAGS="$CFLAGS" --prefix="$stage" --libdir="$stage/lib" \
		--disable-static --disable-xz --disable-xzdec --disable-lzmadec --disable-lzmainfo \
		--disable-scripts --disable-doc --disable-nls --disable-lzma-links
	make -j"$JOBS" && make install
}

build_ffi() {
	debsrc libffi ffi
	cd ffi
	./configure -q --host="$HOST" CC="$CC" CFLAGS="$CFLAGS" --prefix="$stage" --libdir="$stage/lib" \
		--disable-static --disable-docs --disable-multi-os-directory
	make -j"$JOBS" && make install
}

# the amalgamation (made by the source's tcl scripts and native helper
# programs), with the options Debian builds it with that CPython's tests
# look at
build_sqlite() {
	debsrc sqlite3 sqlite
	cd sqlite
	./configure -q --host="$HOST" CC="$CC" BUILD_CC=gcc --prefix="$stage" --libdir="$stage/lib" \
		--disable-static --disable-tcl --disable-readline --enable-threadsafe \
		--enable-load-extension --enable-fts3 --enable-fts4 --enable-fts5 --enable-rtree \
		CFLAGS="$CFLAGS -DSQLITE_ENABLE_COLUMN_METADATA -DSQLITE_ENABLE_UNLOCK_NOTIFY -DSQLITE_ENABLE_DBSTAT_VTAB -DSQLITE_MAX_VARIABLE_NUMBER=250000"
	make -j"$JOBS" && make install
}

# the terminfo database is the system's: the tests that use it need a
# terminal and skip without one
build_ncurses() {
	debsrc ncurses ncurses
	cd ncurses
	./configure -q --host="$HOST" CC="$CC" CFLAGS="$CFLAGS" --prefix="$stage" --libdir="$stage/lib" \
		--with-shared --without-normal --without-debug --without-cxx --without-cxx-binding \
		--without-ada --without-progs --without-tests --without-manpages --enable-widec \
		--enable-pc-files --with-pkg-config-libdir="$stage/lib/pkgconfig" \
		--with-terminfo-dirs=/etc/terminfo:/lib/terminfo:/usr/share/terminfo \
		--with-default-terminfo-dir=/usr/share/terminfo --disable-db-install
	make -j"$JOBS" && make install
}

build_readline() {
	debsrc readline readline
	cd readline
	./configure -q --host="$HOST" CC="$CC" CFLAGS="$CFLAGS -I$stage/include" LDFLAGS="-L$stage/lib" \
		--prefix="$stage" --libdir="$stage/lib" --disable-static --with-curses --disable-install-examples
	make -j"$JOBS" SHLIB_LIBS="-L$stage/lib -lncursesw" && make install-shared install-headers
}

# OpenSSL's configuration directory is the system's, as Debian's and
# Alpine's builds have it: nothing of the tree under test
build_ssl() {
	debsrc openssl ssl
	cd ssl
	case $ARCH in x86_64) t=linux-x86_64 ;; i386) t=linux-elf ;; esac
	./Configure "$t" shared no-tests no-afalgeng --prefix="$stage" --libdir=lib \
		--openssldir=/etc/ssl CC="$CC" CFLAGS="$CFLAGS"
	make -j"$JOBS" build_libs && make install_dev
}

build_python() {
	# what an earlier build of this part installed (make install would
	# not replace its links)
	rm -rf "$stage"/lib/python3.11 "$stage"/lib/libpython3* "$stage"/include/python3.11 \
		"$stage"/bin/python3* "$stage"/bin/pydoc3* "$stage"/bin/idle3* "$stage"/bin/2to3* \
		"$stage"/lib/pkgconfig/python3*
	debsrc python3.11 py
	cd py
	# build and host the same: musl programs run here, so configure and the
	# build run what they build (a cross build would want a second python).
	# The platform triplet (the modules' suffix, the name of the data of
	# sysconfig) is then linux-musl, as on Alpine. Debian's gcc under
	# musl's wrapper reports glibc's multiarch name, which configure
	# refuses beside that triplet and from which setup.py would add glibc's
	# header and library directories: the compiler reports musl's. The
	# build's python finds the stage's libraries through LD_LIBRARY_PATH
	# (setup.py imports each module it builds, in its own process), which
	# the compiler must not see: glibc's cc1, as and ld would load the
	# stage's musl libz.
	case $ARCH in x86_64) ma=x86_64-linux-musl ;; i386) ma=i386-linux-musl ;; esac
	printf '#!/bin/sh\nunset LD_LIBRARY_PATH\ncase $1 in -print-multiarch|--print-multiarch) echo %s; exit 0 ;; esac\nexec %s "$@"\n' \
		"$ma" "$CC" > musl-cc
	chmod +x musl-cc
	# expat and libmpdec are CPython's bundled copies, configure's default
	# (naming --with-system-expat at all, even =no, makes setup.py take
	# the system's)
	./configure --build="$HOST" --host="$HOST" CC="$PWD/musl-cc" CFLAGS="$CFLAGS" \
		CPPFLAGS="-I$stage/include -I$stage/include/ncursesw" LDFLAGS="-L$stage/lib" \
		--prefix="$stage" --enable-shared --without-static-libpython \
		--with-openssl="$stage" --enable-loadable-sqlite-extensions \
		--with-ensurepip=no --with-readline=readline py_cv_module__crypt=n/a
	# Debian's fix of pyexpat's unbounded recursion uses a header of the
	# core, which Debian's build (pyexpat built into the interpreter) has:
	# the shared module needs the define of the core's modules
	sed -i 's|^MODULE_PYEXPAT_CFLAGS=.*|& -DPy_BUILD_CORE_MODULE|' Makefile
	rs="LD_LIBRARY_PATH=$PWD:$stage/lib"
	make -j"$JOBS" RUNSHARED="$rs"
	make install RUNSHARED="$rs"
	# a module that fails to build or to import is only reported by the
	# build: the modules of the stage's libraries must be there
	for m in _ctypes _ssl _hashlib _sqlite3 zlib _bz2 _lzma _decimal pyexpat _elementtree \
		readline _curses _testcapi _ctypes_test; do
		[ -f "$stage/lib/python3.11/lib-dynload/$m.cpython-311-$ma.so" ] || {
			echo "python: module $m was not built" >&2; exit 1; }
	done
}

# What the tests run besides the interpreter: bzip2's programs (the
# tests of bz2 pipe through bunzip2; the system's, a glibc program, would
# load the stage's musl libbz2 through LD_LIBRARY_PATH), and the test
# packages that this release's make install leaves out (its later
# releases install them).
build_extra() {
	debsrc bzip2 bz2
	(cd bz2 && $CC $CFLAGS -D_FILE_OFFSET_BITS=64 -I"$stage/include" -o "$stage/bin/bzip2" bzip2.c \
		-L"$stage/lib" -lbz2)
	ln -sf bzip2 "$stage/bin/bunzip2"
	ln -sf bzip2 "$stage/bin/bzcat"
	s=$("$top/scripts/debsrc.sh" python3.11)
	for d in test_capi test_sqlite3 test_tomllib; do
		rm -rf "$stage/lib/python3.11/test/$d"
		cp -a "$s/Lib/test/$d" "$stage/lib/python3.11/test/"
	done
}

# Test modules of the interpreter's own suite (regrtest), each a test of
# its own: what a loader meets in a language runtime (extension modules
# dlopened by import, ctypes' dlopen and dlsym, the C API, threads,
# signals, fork and exec, subprocesses, multiprocessing's fork server) and
# the modules over each library of the stage, with a few quick others.
# Every resource but the network (none here), the GUI, sound, large files
# and CPU-bound stress.
modules="test_ctypes test_threading test_thread test_signal test_subprocess test_os
test_posix test_importlib test_capi test_sqlite3 test_zlib test_lzma test_bz2 test_decimal
test_json test_unicode test_socket test_select test_mmap test_faulthandler test_atexit
test_multiprocessing_forkserver test_concurrent_futures test_ssl test_hashlib test_readline
test_datetime test_pickle test_struct test_array test_xml_etree_c test_pyexpat"

# Test cases left out (MODULE PATTERN, a pattern of regrtest's --ignore):
# each fails or hangs under musl's own loader.
excluded() {
	# find_library runs the system's gcc, ld and ldconfig: glibc programs,
	# which the stage's musl libz breaks through LD_LIBRARY_PATH, and
	# glibc's library paths
	echo "test_ctypes FindLibraryLinux"
	# expects dlopen("libc.so.9") to fail: musl's loader gives itself for
	# every libc.so name
	echo "test_ctypes ctypes.test.test_loading.LoaderTest.test_load_version"
	# musl's fpathconf asks nothing of the kernel, so a bad descriptor
	# passes
	echo "test_os test.test_os.TestInvalidFD.test_fpathconf"
	# the machine's vsock transport (a virtual machine's) never accepts
	# the test's own connection: the test waits for ever
	echo "test_socket *VSOCK*"
}

# Compared: the exit status, regrtest's verdict, and each test case's
# outcome from its XML report (what regrtest prints besides changes with
# the run: durations, load, process ids, the paths of temporary files).
tests() {
	a='NR > 1 { match($0, /name="[^"]*"/); n = substr($0, RSTART + 6, RLENGTH - 7); r = "ok";
		if (index($0, "<failure")) r = "FAIL"; else if (index($0, "<error")) r = "ERROR";
		else if (index($0, "<skipped")) r = "skipped"; else if (index($0, "<output")) r = "expected-failure";
		else if (index($0, "<outcome")) r = "unexpected-success"; print n, r }'
	a=$(echo "$a" | tr '\n\t' '  ')
	for m in $modules; do
		ig=$(excluded | awk -v m="$m" '$1 == m { printf " -i \047%s\047", $2 }')
		echo "$m rm -f $m.xml; PATH=\$PWD/stage/bin:\$PATH stage/bin/python3.11 -m test" \
			"-u all,-network,-urlfetch,-largefile,-audio,-gui,-cpu,-curses$ig" \
			"--junit-xml \$PWD/$m.xml $m > $m.log 2>&1; r=\$?; tail -n 1 $m.log;" \
			"awk -v RS='<testcase ' '$a' $m.xml; exit \$r"
	done
}
