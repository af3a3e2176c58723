#!/bin/sh
# Checks that the toolchain really put each cell's relocation where the
# matrix says: verify.sh OBJECT CELLS PFX prints one line per cell whose
# relocation (type, symbol, place) is missing from OBJECT and exits 1 if
# any is. CELLS is gen.sh's list; PFX the object's symbol prefix.
set -eu
obj=$1 cells=$2 pfx=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

hexnorm() { printf '%x\n' "$((0x$1))"; }

# every dynamic relocation: OFFSET TYPE SYMBOL (RELR entries as RELR -)
readelf -rW "$obj" | awk '
	/^Relocation section/ { relr = ($0 ~ /\.relr\./); next }
	relr && NF == 1 && $1 ~ /^[0-9a-f]+$/ { print $1, "RELR", "-"; next }
	!relr && $1 ~ /^[0-9a-f]+$/ && $3 ~ /^R_/ { print $1, $3, (NF >= 5 ? $5 : "-") }
' | while read -r off type sym; do
	echo "$(hexnorm "$off") $type $sym"
done > "$tmp/rel"
# the .got and .got.plt ranges
readelf -SW "$obj" | sed 's/^ *\[ *[0-9]*\] *//' | awk '$1 == ".got" || $1 == ".got.plt" { print $3, $5 }' > "$tmp/got"
tls=$(readelf -lW "$obj" | awk '$1 == "TLS" { print $3 }')
readelf -sW "$obj" | awk '{ print $8, $2, $4 }' > "$tmp/sym"

bad=0
while read -r name type sym where; do
	[ "$type" = - ] && continue
	sym=$(echo "$sym" | sed "s/^PFX_/$pfx/")
	found=
	if [ "$where" = any ]; then
		grep -q " $type $sym\$" "$tmp/rel" && found=1
	elif [ "$where" = got ]; then
		while read -r off t s; do
			[ "$t" = "$type" ] && [ "$s" = "$sym" ] || continue
			while read -r start size; do
				if [ $((0x$off >= 0x$start && 0x$off < 0x$start + 0x$size)) = 1 ]; then
					found=1
				fi
			done < "$tmp/got"
		done < "$tmp/rel"
	else
		line=$(awk -v n="$pfx$where" '$1 == n { print $2, $3; exit }' "$tmp/sym")
		val=${line% *} stt=${line#* }
		if [ -n "$line" ]; then
			[ "$stt" = TLS ] && val=$(printf '%x' $((0x$val + $tls)))
			val=$(hexnorm "$val")
			grep -q "^$val $type $sym\$" "$tmp/rel" && found=1
		fi
	fi
	if [ -z "$found" ]; then
		echo "$obj: $name: no $type against $sym at $where"
		bad=1
	fi
done < "$cells"
exit $bad
