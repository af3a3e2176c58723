# make bench: the full benchmark suite, report in build/bench/report.md,
# charts in build/bench/startup.png and (the real applications, when
# make check-real-large built them) build/bench/apps.png.  make demo: the
# ~40-library comparison the README shows.  BENCH_ARGS is passed to bench/bench.py, e.g.
#   make bench BENCH_ARGS=--quick
#   make bench BENCH_ARGS="--libs 50 --sweep 10,50 --runs 20"
#   make bench BENCH_ARGS=--no-i386      (x86_64 only)
#   make bench BENCH_ARGS=--i386-only    (the i386 column only)
#   make bench BENCH_ARGS="--no-gst --no-icu"  (without the real applications
#                                        of issue 27: bench/gstbench.py and
#                                        bench/icubench.py, each skipped with
#                                        the reason when make check-real-large
#                                        has not built it)
#   make bench BENCH_ARGS=--cold-only  (the cold start-up rows alone, chart in
#                                        build/bench/cold.png: bench/cold.py; as
#                                        root the whole page cache is dropped
#                                        before each run, --evict files evicts
#                                        only the measured files)
# The i386 column is skipped, with the reason in the report, when the i386
# toolchains or loaders are absent.
# See docs/BENCHMARKS.md.  Neither target is part of `make all` or `make check`.
BENCH_ARGS ?=
BENCH_PY := python3 bench/bench.py

.PHONY: bench demo

# A loader or linkopt that does not build yet must not stop the glibc and
# musl measurements: their columns then read "failed" with the reason.
bench:
	$(Q)$(MAKE) --no-print-directory all || echo "bench: 'make all' failed; quickbind variants will be reported as failed"
	$(Q)$(MAKE) --no-print-directory $(B)/bench/qinsn.so || echo "bench: the qemu plugin did not build; i386 counts use qemu's block log"
	$(BENCH_PY) --out $(B)/bench $(BENCH_ARGS)

demo:
	./scripts/deps.sh
	$(Q)$(MAKE) --no-print-directory all || echo "demo: 'make all' failed; quickbind variants will be reported as failed"
	$(BENCH_PY) --demo --out $(B)/demo $(BENCH_ARGS)

# The TCG plugin counting guest instructions (bench/qemucount.py, i386 under
# qemu-user): loaded by the host's dynamic qemu, so a host shared object.
$(B)/bench/qinsn.so: bench/qinsn.c bench/bench.mk
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(WARN) -O2 -g -shared -fPIC -fvisibility=hidden -o $@ $<
