# Smoke test of the C++ office workload of the benchmark (bench/cxxgen.py,
# bench/cxxbench.py): a tiny one generated and measured through bench.py,
# its report section checked, and its program run identically under musl's
# loader, glibc's (the g++ build) and quickbind, plain, with tables and in
# verify mode.  No timing is asserted.
$(B)/tests/cxxbench_smoke: tests/cxxbench_smoke.c tests/cxxbench.mk $(B)/tests/libqbtest.a
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -o $@ $< $(B)/tests/libqbtest.a -lcriterion

CHECK_BINS += $(B)/tests/cxxbench_smoke
-include $(B)/tests/cxxbench_smoke.d
