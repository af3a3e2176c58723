# The real-software corpus: open-source C projects from Debian's
# source archive built with musl-gcc as shared libraries, their own test
# suites run under musl's loader, quickbind, and quickbind with linkopt's
# tables (scripts/real/). Sources and builds are cached in
# /var/cache/quickbind (QB_CACHE), so only the first run builds.
# The programs built by a musl distribution (scripts/real/dist) run under
# quickbind built on their musl: that build (make MUSL=VERSION) comes first.
#   make check-real                    every project (scripts/real/projects)
#   make check-real REAL="zlib:i386"   some projects or architectures
#   make check-real REAL=dist          the distribution-built programs alone
# make check-real-large: the same for the heavy projects
# (scripts/real/projects-large: the GStreamer stack, ICU and abseil, C++
# on both architectures, and CPython on both), run by hand, not by CI:
# their builds take hours
#   make check-real-large REAL_LARGE=gst
#   make check-real-large REAL_LARGE=python:x86_64
#   make check-real-large REAL_LARGE="icu:i386 abseil"
REAL_DIST_MUSL := $(sort $(shell awk '!/^\#/ && NF { print $$6 }' scripts/real/dist))
.PHONY: check-real check-real-large
REAL_WANTS_DIST := $(if $(REAL),$(filter dist dist:%,$(REAL)),dist)
check-real: all | deps
	$(if $(REAL_WANTS_DIST),@$(foreach v,$(REAL_DIST_MUSL),$(MAKE) --no-print-directory MUSL=$(v) all &&) true)
	@./scripts/real/run.sh $(REAL)

REAL_LARGE ?= $(shell grep -v '^\#' scripts/real/projects-large)
check-real-large: all | deps
	@JOBS=$${JOBS:-2} nice -n 10 ./scripts/real/run.sh $(REAL_LARGE)
