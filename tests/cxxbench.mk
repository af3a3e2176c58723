# Smoke test of the C++ office workload of the benchmark (bench/cxxgen.py,
# bench/cxxbench.py): a tiny one generated and measured through bench.py,
# its report section checked, and its program run identically under musl's
# loader, glibc's (the g++ build) and quickbind, plain, with tables and in
# verify mode.  No timing is asserted.
$(B)/tests/cxxbench_smoke: tests/cxxbench_smoke.c tests/cxxbench.mk
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $< -lcriterion

CHECK_BINS += $(B)/tests/cxxbench_smoke
-include $(B)/tests/cxxbench_smoke.d
