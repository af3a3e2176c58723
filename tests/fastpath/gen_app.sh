#!/bin/sh
# gen_app.sh OUT N CC LINKOPT: generate, build and optimize an application
# of N shared libraries for the differential test of direct binding.
#
# Library i needs libraries i+1 and i+2 and references, from them, functions
# (calls and a vtable-like table of pointers), data (a table of pointers)
# and, from library i+3 which it does not need, one function. Symbols
# defined in two libraries that the referencing library both needs
# (dupJ_*), weak definitions followed by strong or weak ones (weakJ_*),
# functions that the executable interposes on (hookJ_fn) and data that the
# executable copies (gJ_data, copy relocations) are sprinkled over the set.
# OUT/ holds the plain build, OUT/opt/ the same files after linkopt.
set -eu
out=$1 n=$2 cc=$3 linkopt=$4
rm -rf "$out"
mkdir -p "$out/src" "$out/opt"

is_dup() { [ $(($1 % 5)) -eq 1 ] && [ $(($1 + 1)) -lt "$n" ]; }
is_weak() { [ $(($1 % 5)) -eq 2 ] && [ $(($1 + 2)) -lt "$n" ]; }
is_hook() { [ $(($1 % 10)) -eq 4 ]; }
is_copy() { [ $(($1 % 10)) -eq 5 ]; }

i=0
while [ "$i" -lt "$n" ]; do
	a=$((i + 1)) b=$((i + 2)) c=$((i + 3))
	f=$out/src/lib$i.c
	{
		echo '#include <stdio.h>'
		echo "int g${i}_data = $((i * 7 + 1));"
		echo "int g${i}_fn(int x) { return x * $((i % 13 + 2)) + g${i}_data; }"
		# This library's share of the duplicated, weak and hooked symbols.
		for j in $((i - 1)) "$i"; do
			if [ "$j" -ge 0 ] && is_dup "$j"; then
				echo "const char *dup${j}_fn(void) { return \"dup$j from lib$i\"; }"
				echo "int dup${j}_data = $((i * 100 + j));"
			fi
		done
		if is_weak "$i"; then
			echo "__attribute__((weak)) const char *weak${i}_fn(void) { return \"weak$i weak in lib$i\"; }"
			echo "__attribute__((weak)) int weak${i}_data = $i;"
		fi
		if [ "$i" -ge 1 ] && is_weak $((i - 1)); then
			echo "const char *weak$((i - 1))_fn(void) { return \"weak$((i - 1)) strong in lib$i\"; }"
		fi
		if [ "$i" -ge 2 ] && is_weak $((i - 2)); then
			echo "__attribute__((weak)) int weak$((i - 2))_data = $((i * 1000));"
		fi
		if is_hook "$i"; then
			echo "const char *hook${i}_fn(void) { return \"hook$i in lib$i\"; }"
			echo "const char *hook${i}_self(void) { return hook${i}_fn(); }"
		fi
		# References to the libraries below.
		if [ "$a" -lt "$n" ]; then
			echo "int g${a}_fn(int); extern int g${a}_data;"
			ptrs="&g${a}_data" vt="g${a}_fn, g${a}_fn" call="g${a}_fn(1)"
			if [ "$b" -lt "$n" ]; then
				echo "int g${b}_fn(int); extern int g${b}_data;"
				ptrs="$ptrs, &g${b}_data" vt="$vt, g${b}_fn" call="$call + g${b}_fn(2)"
			fi
			if [ "$c" -lt "$n" ]; then
				echo "int g${c}_fn(int);"
				call="$call + g${c}_fn(3)"
			fi
			echo "int *const g${i}_ptrs[] = { $ptrs };"
			echo "int (*const g${i}_vt[])(int) = { $vt };"
		fi
		echo "void g${i}_report(void)"
		echo "{"
		echo "	printf(\"lib$i: own=%d\", g${i}_fn(0));"
		if [ "$a" -lt "$n" ]; then
			echo "	int s = 0;"
			echo "	for (unsigned k = 0; k < sizeof g${i}_ptrs / sizeof *g${i}_ptrs; k++) s += *g${i}_ptrs[k];"
			echo "	for (unsigned k = 0; k < sizeof g${i}_vt / sizeof *g${i}_vt; k++) s += g${i}_vt[k]((int)k);"
			echo "	printf(\" calls=%d tables=%d\", $call, s);"
		fi
		if is_dup "$a"; then
			echo "	extern const char *dup${a}_fn(void); extern int dup${a}_data;"
			echo "	printf(\" [%s %d]\", dup${a}_fn(), dup${a}_data);"
		fi
		if is_weak "$a"; then
			echo "	extern const char *weak${a}_fn(void); extern int weak${a}_data;"
			echo "	printf(\" [%s %d]\", weak${a}_fn(), weak${a}_data);"
		fi
		if [ "$a" -lt "$n" ] && is_hook "$a"; then
			echo "	extern const char *hook${a}_fn(void), *hook${a}_self(void);"
			echo "	printf(\" [%s / %s]\", hook${a}_fn(), hook${a}_self());"
		fi
		echo "	putchar(10);"
		echo "}"
	} > "$f"
	i=$((i + 1))
done

{
	echo '#include <stdio.h>'
	i=0
	while [ "$i" -lt "$n" ]; do
		echo "void g${i}_report(void);"
		if is_hook "$i"; then
			echo "const char *hook${i}_fn(void) { return \"hook$i in the executable\"; }"
		fi
		if is_copy "$i"; then
			echo "extern int g${i}_data;"
		fi
		i=$((i + 1))
	done
	echo "int main(void)"
	echo "{"
	i=0
	while [ "$i" -lt "$n" ]; do
		if is_copy "$i"; then
			echo "	g${i}_data += 1000;"
		fi
		i=$((i + 1))
	done
	i=0
	while [ "$i" -lt "$n" ]; do
		echo "	g${i}_report();"
		i=$((i + 1))
	done
	echo "	return 0;"
	echo "}"
} > "$out/src/main.c"

i=$((n - 1))
libs=
while [ "$i" -ge 0 ]; do
	deps=
	[ $((i + 1)) -lt "$n" ] && deps="-lg$((i + 1))"
	[ $((i + 2)) -lt "$n" ] && deps="$deps -lg$((i + 2))"
	$cc -O1 -fPIC -shared -Wl,-soname,libg$i.so -o "$out/libg$i.so" "$out/src/lib$i.c" -L"$out" $deps
	libs="-lg$i $libs"
	i=$((i - 1))
done
$cc -O1 -rdynamic -o "$out/prog" "$out/src/main.c" -L"$out" $libs

cp "$out"/*.so "$out/prog" "$out/opt/"
"$linkopt" -L "$out/opt" "$out/opt/prog" "$out"/opt/*.so
