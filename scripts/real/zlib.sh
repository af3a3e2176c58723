# zlib: a small library with a symbol-version script (zlib.map). Its tests
# are example.c (every API, gz files included) and minigzip.c round trips.
pkg=zlib
archs="x86_64 i386"
libdirs=.

build() {
	flags="-O2 -fPIC -D_LARGEFILE64_SOURCE=1 -DHAVE_HIDDEN"
	for f in adler32 crc32 deflate infback inffast inflate inftrees trees zutil \
		compress uncompr gzclose gzlib gzread gzwrite; do
		$CC $flags -c -o $f.o $f.c
	done
	$CC -shared -Wl,-soname,libz.so.1 -Wl,--version-script,zlib.map \
		-o libz.so.1 adler32.o crc32.o deflate.o infback.o inffast.o inflate.o \
		inftrees.o trees.o zutil.o compress.o uncompr.o gzclose.o gzlib.o \
		gzread.o gzwrite.o
	ln -sf libz.so.1 libz.so
	$CC -O2 -D_LARGEFILE64_SOURCE=1 -I. -o examplesh test/example.c -L. -lz
	$CC -O2 -D_LARGEFILE64_SOURCE=1 -I. -o minigzipsh test/minigzip.c -L. -lz
	# the inputs of the round trips
	cat ChangeLog FAQ README > text.in
	cat *.o > binary.in
}

tests() {
	echo "example ./examplesh"
	echo "example-file ./examplesh tmp.gz && ./examplesh tmp.gz"
	for f in text.in binary.in zlib.3.pdf; do
		for l in 1 6 9; do
			echo "roundtrip-$f-$l ./minigzipsh -$l < $f > $f.$l.gz && ./minigzipsh -d < $f.$l.gz | cmp - $f && cksum < $f.$l.gz"
		done
		echo "filtered-$f ./minigzipsh -f < $f | ./minigzipsh -d | cmp - $f"
		echo "huffman-$f ./minigzipsh -h < $f | ./minigzipsh -d | cmp - $f"
		echo "file-$f cp $f f-$f && ./minigzipsh f-$f && ./minigzipsh -d f-$f.gz && cmp f-$f $f"
	done
}
