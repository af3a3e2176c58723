#!/bin/sh
# The output a matrix program must print: expect.sh PROGRAM-ROLE PROG-CELLS
# LIB-CELLS, every cell "ok" in every thread, in the order main.c checks
# them (the program, the needed library, the RTLD_LOCAL and RTLD_GLOBAL
# libraries; the main thread, the thread created before the dlopens, the
# one created after).
set -eu
role=$1 pcells=$2 lcells=$3
for thread in main early late; do
	for r in "$role" needed dlopen-local dlopen-global; do
		[ "$r" = "$role" ] && c=$pcells || c=$lcells
		while read -r name _; do
			echo "$thread $r $name: ok"
		done < "$c"
	done
done
