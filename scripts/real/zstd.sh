# zstd: a large compression library built multi-threaded (worker threads
# compress in parallel with -T) and the zstd tool linked against it
# (`make zstd-dll`). Tests: the project's golden-file tests, round trips at
# several levels and thread counts, and dictionaries (tests/playTests.sh,
# `make test-zstd`, is left out: it fails under musl itself here, where
# the host readelf it calls inherits the test library path).
pkg=zstd
archs="x86_64"
libdirs=lib

build() {
	# The tool of 1.5.4 linked to the library calls its internal thread
	# pool: the library exports every symbol (CFLAGS without
	# -fvisibility=hidden).
	make -C lib -j"$JOBS" CC="$CC" CFLAGS="-O2 -fPIC" libzstd
	ln -sf libzstd.so.1 lib/libzstd.so
	make -C programs -j"$JOBS" CC="$CC" zstd-dll
	make -C tests CC="$CC" datagen
}

tests() {
	z=programs/zstd
	for f in tests/golden-decompression/*.zst; do
		echo "golden-decompression/${f##*/} $z -t $f"
	done
	for f in tests/golden-compression/*; do
		echo "golden-compression/${f##*/} $z -c $f | $z -d | cmp - $f"
	done
	for l in 1 3 9 19; do
		for t in 1 2 4; do
			echo "roundtrip-l$l-T$t cat lib/*/*.c > in.$l.$t && $z -q -$l -T$t in.$l.$t -o in.$l.$t.zst && cksum < in.$l.$t.zst && $z -q -d in.$l.$t.zst -o out.$l.$t && cmp in.$l.$t out.$l.$t"
		done
	done
	echo "long-T2 cat lib/*/*.c lib/*/*.c > long.in && $z -q --long -T2 long.in -o long.zst && $z -q -d --long long.zst -o long.out && cmp long.in long.out"
	echo "dictionary $z -q --train lib/*/*.c -o dict && $z -q -D dict lib/zstd.h -o h.zst && $z -q -d -D dict h.zst -o h.out && cmp h.out lib/zstd.h"
}
