# gst: the GStreamer stack as a plugin host at scale. Debian's
# sources of zlib, libffi, pcre2, glib2.0, gstreamer1.0,
# gst-plugins-base1.0 and gst-plugins-good1.0, built with musl-gcc as shared
# libraries and installed into one prefix, stage/ of the tree; the plugins
# are modules in stage/lib/gstreamer-1.0 that every program dlopens through
# the registry. Every plugin that needs nothing beyond this stack is built
# (meson's automatic features find no other library: pkg-config only sees
# the stage). Tests: the gst-check unit tests of core, base and good, each
# test program run on its own with the environment meson's test setup gives
# it, but the plugins, the registry and the scanner taken from the copy
# under test (the built-in plugin directory is the cache's, which would
# load the same unoptimized plugins under every loader).
#
# The stack is heavy (about 30 minutes of two cores), so it is in
# make check-real-large, not in check-real, and it is built in parts:
# each build_PART below leaves a stamp holding the checksum of itself and
# of the parts before it, and a rebuild after an edit (resume=1) redoes
# only the parts from the first one that changed.
pkg=gstreamer1.0
srcs="zlib libffi pcre2 glib2.0 gst-plugins-base1.0 gst-plugins-good1.0"
keyfiles="gst-native.ini gst-cc"
archs="x86_64"
libdirs=stage/lib
resume=1
parts="zlib ffi pcre2 glib core base good"

build() {
	stage=$PWD/stage
	mkdir -p "$stage/lib/pkgconfig" "$stage/include" "$stage/kinc"
	# the kernel's UAPI headers alone (linux/, asm/, asm-generic/), never
	# glibc's: musl-gcc's specs search @STAGE@/kinc after musl's headers
	for d in linux asm-generic mtd; do ln -sfn /usr/include/$d "$stage/kinc/$d"; done
	ln -sfn /usr/include/x86_64-linux-gnu/asm "$stage/kinc/asm"
	sed -e "s|@STAGE@|$stage|g" -e "s|@HERE@|$here|g" "$here/gst-native.ini" > "$stage/native.ini"
	# glib's tools (glib-mkenums, glib-compile-resources) for the parts after it
	PATH=$stage/bin:$PATH
	# pkg-config sees the stage only: a glibc library of the system found
	# by an automatic feature would break the link or mix two libcs
	PKG_CONFIG_LIBDIR=$stage/lib/pkgconfig PKG_CONFIG_PATH=
	export PKG_CONFIG_LIBDIR PKG_CONFIG_PATH
	# the helpers every part uses start the chain of checksums
	sum=$(sed -n -e '/^build_meson()/,/^}/p' -e '/^debsrc()/,/^}/p' "$here/gst.sh" | cksum | cut -d' ' -f1)
	for p in $parts; do
		sum=$({ echo "$sum"; sed -n "/^build_$p()/,/^}/p" "$here/gst.sh"; } | cksum | cut -d' ' -f1)
		[ "$(cat ".part-$p" 2>/dev/null)" = "$sum" ] && continue
		echo "gst: building part $p"
		rm -f ".part-$p"
		(set -e; "build_$p")
		echo "$sum" > ".part-$p"
	done
	# what the tests do not need: the dependencies' build trees (installed
	# in the stage), objects and static archives (the tree is copied three
	# times, and every ELF file of a copy is optimized)
	rm -rf zlib ffi pcre2 glib
	# the uninstalled libraries and plugins of the build directories: the
	# tests load the stage's (LD_LIBRARY_PATH and the plugin path come
	# first), and a second copy of each would double linkopt's work;
	# files and links only (meson's object directories are named *.so.p)
	find _build base/_build good/_build \( -type f -o -type l \) -name '*.so*' ! -path '*/tests/*' -delete
	rm -rf _build/meson-private base/_build/meson-private good/_build/meson-private
	# the tests' HOME: made here, since a glibc mkdir in a test command
	# would load the stage's musl libpcre2 through LD_LIBRARY_PATH
	mkdir -p home
	find . -name '*.o' -delete
	find . -name '*.a' -delete
}

# debsrc PACKAGE DIR: a fresh copy of a Debian source tree at DIR.
debsrc() {
	s=$("$top/scripts/debsrc.sh" "$1")
	rm -rf "$2"
	cp -a "$s" "$2"
}

# build_meson DIR OPTIONS...: configure, build and install one meson
# project of the stack into the stage. -O2 as Debian builds it, without
# debugging information, which doubles the build time of this stack on two
# cores and changes nothing at run time (the symbol tables stay).
build_meson() {
	d=$1; shift
	rm -rf "$d/_build"
	(cd "$d" && meson setup _build --native-file "$stage/native.ini" --prefix "$stage" \
		--libdir lib --buildtype plain -Doptimization=2 -Ddebug=false -Ddefault_library=shared "$@" &&
		ninja -C _build -j "$JOBS" && meson install -C _build --no-rebuild --quiet)
}

build_zlib() {
	debsrc zlib zlib
	cd zlib
	for f in adler32 crc32 deflate infback inffast inflate inftrees trees zutil \
		compress uncompr gzclose gzlib gzread gzwrite; do
		$CC -O2 -fPIC -D_LARGEFILE64_SOURCE=1 -DHAVE_HIDDEN -c -o $f.o $f.c
	done
	$CC -shared -Wl,-soname,libz.so.1 -Wl,--version-script,zlib.map -o "$stage/lib/libz.so.1.2.13" *.o
	ln -sf libz.so.1.2.13 "$stage/lib/libz.so.1"
	ln -sf libz.so.1 "$stage/lib/libz.so"
	cp zlib.h zconf.h "$stage/include/"
	printf '%s\n' "prefix=$stage" 'libdir=${prefix}/lib' 'includedir=${prefix}/include' \
		'Name: zlib' 'Description: zlib' 'Version: 1.2.13' 'Libs: -L${libdir} -lz' \
		'Cflags: -I${includedir}' > "$stage/lib/pkgconfig/zlib.pc"
}

build_ffi() {
	debsrc libffi ffi
	cd ffi
	./configure -q --host="$HOST" CC="$CC" CFLAGS="-O2 -idirafter $stage/kinc" \
		--prefix="$stage" --libdir="$stage/lib" \
		--disable-static --disable-docs --disable-multi-os-directory
	make -j"$JOBS" && make install
}

build_pcre2() {
	debsrc pcre2 pcre2
	cd pcre2
	./configure -q --host="$HOST" CC="$CC" CFLAGS="-O2 -idirafter $stage/kinc" \
		--prefix="$stage" --libdir="$stage/lib" --disable-static \
		--enable-jit --disable-pcre2grep-libz --disable-pcre2grep-libbz2
	make -j"$JOBS" && make install
}

build_glib() {
	debsrc glib2.0 glib
	build_meson glib -Dtests=false -Dselinux=disabled -Dxattr=false -Dlibmount=disabled \
		-Dman=false -Dgtk_doc=false -Ddtrace=false -Dsystemtap=false -Dsysprof=disabled \
		-Dnls=disabled -Dlibelf=disabled -Dinstalled_tests=false -Dglib_debug=disabled
}

build_core() {
	# glib's programs run at build time (glib-compile-resources) find its
	# libraries next to them; LD_LIBRARY_PATH would reach meson's glibc
	# python too (its zlib and ctypes would load the stage's musl builds)
	for f in "$stage"/bin/*; do
		head -c 4 "$f" | grep -q ELF && patchelf --set-rpath '$ORIGIN/../lib' "$f"
	done
	build_meson . -Dtests=enabled -Dcheck=enabled -Dexamples=disabled -Dbenchmarks=disabled \
		-Dtools=enabled -Dintrospection=disabled -Dnls=disabled -Dlibunwind=disabled \
		-Dlibdw=disabled -Ddbghelp=disabled -Dbash-completion=disabled -Ddoc=disabled \
		-Dptp-helper-permissions=none -Dpackage-origin=quickbind
}

build_base() {
	debsrc gst-plugins-base1.0 base
	build_meson base -Dtests=enabled -Dexamples=disabled -Dtools=enabled -Dintrospection=disabled \
		-Dnls=disabled -Dorc=disabled -Dgl=disabled -Dx11=disabled -Dxvideo=disabled \
		-Dxshm=disabled -Dxi=disabled -Ddoc=disabled -Dqt5=disabled
}

build_good() {
	debsrc gst-plugins-good1.0 good
	build_meson good -Dtests=enabled -Dexamples=disabled -Dnls=disabled -Dorc=disabled \
		-Ddoc=disabled -Dqt5=disabled -Dqt6=disabled -Dgtk3=disabled -Dximagesrc=disabled \
		-Dv4l2-gudev=disabled -Dv4l2-libv4l2=disabled -Dasm=disabled
}

# One test per gst-check program of core, base and good, in the order of
# the tree. The environment is the one of meson's test setup (a registry
# of its own per test, the state-change test ignoring hardware elements,
# check's timeout: 60 s for a loaded machine against meson's 20, the
# plugin whitelist below), with the plugin path, the scanner and the
# helper of the copy under test.
tests() {
	env='GST_PLUGIN_SYSTEM_PATH_1_0= GST_PLUGIN_PATH_1_0=$PWD/stage/lib/gstreamer-1.0'
	env="$env"' GST_PLUGIN_SCANNER_1_0=$PWD/stage/libexec/gstreamer-1.0/gst-plugin-scanner'
	env="$env"' GST_PTP_HELPER_1_0=$PWD/stage/libexec/gstreamer-1.0/gst-ptp-helper'
	env="$env"' GIO_MODULE_DIR=$PWD/stage/lib/gio/modules GST_REGISTRY_FORK=yes'
	env="$env"' GST_STATE_IGNORE_ELEMENTS="cdio cdparanoiasrc libvisual_ alsasrc alsasink"'
	env="$env"' CK_DEFAULT_TIMEOUT=60 CK_FORK=yes HOME=$PWD/home XDG_RUNTIME_DIR=$PWD/home'
	for d in _build/tests/check base/_build/tests/check good/_build/tests/check; do
		find "$d" -type f -perm -u+x ! -name '*.so' | sort |
		while IFS= read -r t; do
			head -c 4 "$t" | grep -q ELF || continue
			n=$(echo "${t#"$d"/}" | tr / -)
			# generic/states crashes under musl's own loader in a number of
			# its three cases that changes from run to run (SIGSEGV in
			# musl's printf_core on a streaming thread of
			# imagesequencesrc): no outcome to compare with
			[ "$d/$n" != good/_build/tests/check/generic_states ] || continue
			# meson's whitelist: each suite loads the plugins of its own
			# package and those below it (a core test asserting that no
			# element handles some URI fails when good's are loaded)
			case $d in
			_build*) n=core-$n w=gstreamer ;;
			base*) n=base-$n w=gstreamer:gst-plugins-base ;;
			*) n=good-$n w=gstreamer:gst-plugins-base:gst-plugins-good ;;
			esac
			echo "$n $env GST_PLUGIN_LOADING_WHITELIST=$w GST_REGISTRY=\$PWD/home/$n.registry $t"
		done
	done
}

# check prints how long a failing test ran; the registry and the plugin
# scanner print paths of the copy under test.
filter() {
	sed -e 's/[0-9][0-9.]*s:/Ns:/g' -e 's/ ran in [0-9.]*s / ran in Ns /' -e "s|$PWD|TREE|g"
}
