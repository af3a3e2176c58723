# Run inside the image (chroot ROOT /bin/sh /script.sh): many programs of
# the image, each printing something deterministic. The test compares the
# whole output under musl's loader and quickbind, before and after
# linkopt --root.
set -e
# A directory of its own: the image suite runs tests in parallel.
work=$(mktemp -d /tmp/script.XXXXXX)
cd "$work"
echo "== busybox applets"
busybox | head -1 | cut -d' ' -f1-2
printf 'b\na\nc\na\n' | sort | uniq -c | sed 's/^ *//'
seq 1 100 | awk '{ s += $1 } END { print s }'
echo hello world | tr a-z A-Z
echo hello | sed 's/l/L/g'
echo 'x y z' | cut -d' ' -f2
expr 6 \* 7
basename /a/b/c.txt .txt
dirname /a/b/c
printf '%05d|%-4s|%x\n' 42 ab 255
test -d /usr/lib && echo "usr/lib is a directory"
echo "abcabc" | grep -o b | wc -l
echo "2 3 + p" | dc 2>/dev/null || echo "no dc"
echo "== files"
mkdir -p t/d/e
echo data > t/d/f
echo more > t/d/e/g
ln -s f t/d/link
find t | sort
readlink t/d/link
wc -c < t/d/f
md5sum t/d/f | cut -d' ' -f1
sha256sum t/d/e/g | cut -d' ' -f1
od -An -tx1 t/d/f
tar -C t -cf t.tar d
tar -tf t.tar | sort
gzip -c t/d/f > f.gz
gunzip -c f.gz
cp -r t u
diff -r t u && echo "copies identical"
rm -rf t u t.tar f.gz
echo "== zlib"
echo "zlib says hello" > z.txt
minigzip < z.txt > z.gz
minigzip -d < z.gz
gunzip -c z.gz
rm -f z.txt z.gz
zexample | sed -n '1,3p'
echo "== lua"
lua -e 'print(("quickbind"):upper(), #arg, 2^10, math.floor(7/2))'
lua -e 'local t = {} for i = 1, 10 do t[#t + 1] = i * i end print(table.concat(t, ","))'
lua -e 'local co = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end) print(co(1), co(21))'
lua -e 'package.cpath = "/usr/lib/lua/5.4/?.so" local m = require("qbmod") print(m.join("a", "b", "c"), m.sum(1, 2, 3, 4))'
lua -e 'print(pcall(error, "boom"))'
lua -e 'print(string.format("%q", "tab\there"), ("x"):rep(3, "-"))'
echo "== ldd"
for p in /bin/busybox /usr/bin/minigzip /usr/bin/zexample /usr/bin/lua /usr/lib/liblua5.4.so.0 /usr/lib/lua/5.4/qbmod.so; do
	echo "$p:"
	ldd "$p" | sed 's/ (0x[0-9a-f]*)$//'
done
cd /
rm -rf "$work"
echo "== done"
