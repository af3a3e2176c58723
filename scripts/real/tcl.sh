# tcl8.6: a scripting language built thread-enabled (its notifier runs in a
# thread of its own), with extensions loaded and unloaded at run time
# (`load`/`unload` of the dltest packages: dlopen, dlsym, dlclose), a stub
# table of hundreds of function pointers, and a large library. Tests: files
# of the project's own suite (tests/*.test, run by tcltest as `make test`
# runs them), chosen for what the loader does and to keep the run short.
pkg=tcl8.6
archs="x86_64"
libdirs=unix

build() {
	cd unix
	./configure CC="$CC" --host="$HOST" --enable-shared --enable-threads \
		--enable-dll-unloading --disable-rpath --without-tzdata
	make -j"$JOBS" tcltest
}

# (io, clock, regexp and socket, a third of the time, exercise nothing of
# the loader the others do not)
tcl_tests_x86_64="load unload package safe interp thread event exec ioCmd
	string list dict expr format binary encoding namespace oo proc info
	lsearch trace upvar var zlib compile coroutine nre tailcall
	env fileSystem fCmd cmdAH unixNotfy unixFCmd platform"

tests() {
	eval "set -- \$tcl_tests_$ARCH"
	for t; do
		echo "$t cd unix && TCL_LIBRARY=\$PWD/../library TCLLIBPATH=\$PWD/pkgs ./tcltest ../tests/$t.test -skip 'event-14.1 interp-36.7' > $t.log 2>&1; echo status \$?; cat $t.log; grep -q 'Failed	0\$' $t.log"
	done
}

# What changes from one run to the next whatever the loader.
filter() {
	sed -e '/^Tests began at/d' -e '/^Tests ended at/d' \
		-e 's/[0-9][0-9]* microseconds/N microseconds/g' \
		-e 's/pid [0-9][0-9]*/pid N/g'
}
