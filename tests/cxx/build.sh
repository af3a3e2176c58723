#!/bin/sh
# tests/cxx/build.sh ARCH OUT LINKOPT: the C++ fixtures of tests/test_cxx.c.
# OUT holds the libraries, the program (app), the dlopened plugin and a
# copy of the shared C++ runtime, all found through $ORIGIN; OUT/opt holds
# copies of all of them optimized together by LINKOPT.
set -eu
arch=$1 out=$2 linkopt=$3
src=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$src/../.." && pwd)
case $arch in
x86_64) cxx=$top/scripts/cxx/musl-c++ ;;
i386) cxx=$top/scripts/cxx/musl-c++-i386 ;;
*) echo "build.sh: unknown architecture $arch" >&2; exit 1 ;;
esac
rt=$("$cxx" --print-runtime-dir)
flags="-std=c++17 -O1 -g -Wall -Wextra -Werror -fPIC"
# the suite's own files in OUT (the loader's stamp, the compare object)
# are built beside these, perhaps at the same time: they stay
mkdir -p "$out"
find "$out" -mindepth 1 -maxdepth 1 ! -name interp.stamp ! -name 'lt-compare.*' -exec rm -rf {} +
cd "$out"
cp "$rt/libc++.so.1" "$rt/libc++abi.so.1" "$rt/libunwind.so.1" .

lib() { # NAME SOURCE NEEDED...
	n=$1 s=$2
	shift 2
	"$cxx" $flags -shared -o "lib$n.so" -Wl,-soname,"lib$n.so" -Wl,-rpath,'$ORIGIN' \
		"$src/$s" -L. "$@"
}
lib shape shape.cpp
lib circle circle.cpp -lshape &
lib square square.cpp -lshape &
lib plugin plugin.cpp -lshape &
wait
"$cxx" $flags -o app "$src/main.cpp" -Wl,-rpath,'$ORIGIN' -L. -lcircle -lsquare -lshape -pthread
for f in libshape.so libcircle.so libsquare.so libplugin.so app; do
	[ -f "$f" ] || { echo "build.sh: $f was not built" >&2; exit 1; }
done

files="app libshape.so libcircle.so libsquare.so libplugin.so libc++.so.1 libc++abi.so.1 libunwind.so.1"
mkdir opt
cp $files opt/
(cd opt && "$linkopt" -L . $files)
