# Smoke test of the benchmark suite (bench/): a tiny workload generated,
# built and run under every loader variant; no timing is asserted.  The i386
# column is covered when configure enabled i386 (the define is in the
# recipe, so the binary is relinked when ARCHS changes via config.mak).
BENCH_SMOKE_I386 := $(if $(filter i386,$(ARCHS)),1,0)
$(B)/tests/bench_smoke: tests/bench_smoke.c tests/bench.mk $(wildcard config.mak) $(B)/tests/libqbtest.a
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DBENCH_I386=$(BENCH_SMOKE_I386) -o $@ $< $(B)/tests/libqbtest.a -lcriterion

CHECK_BINS += $(B)/tests/bench_smoke
-include $(B)/tests/bench_smoke.d
# the qemu plugin the instruction-count tests load (bench/bench.mk's rule)
CHECK_DEPS += $(B)/bench/qinsn.so

# The benchmark's smoke tests alone (bench_smoke, cxxbench_smoke): what a
# change to bench/ must pass.  Their cold rows evict only the files they
# measure (--evict files), never the whole page cache.
.PHONY: check-bench
check-bench: all $(B)/bench/qinsn.so $(B)/tests/bench_smoke $(B)/tests/cxxbench_smoke | deps
	$(call run_suites,check-bench,$(B)/tests/bench_smoke $(B)/tests/cxxbench_smoke)
