# The real-software corpus (issue 10): open-source C projects from Debian's
# source archive built with musl-gcc as shared libraries, their own test
# suites run under musl's loader, quickbind, and quickbind with linkopt's
# tables (scripts/real/). Sources and builds are cached in
# /var/cache/quickbind (QB_CACHE), so only the first run builds.
#   make check-real                    every project (scripts/real/projects)
#   make check-real REAL="zlib:i386"   some projects or architectures
.PHONY: check-real
check-real: all | deps
	@./scripts/real/run.sh $(REAL)
