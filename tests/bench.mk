# Smoke test of the benchmark suite (bench/): a tiny workload generated,
# built and run under every loader variant; no timing is asserted.
$(B)/tests/bench_smoke: tests/bench_smoke.c
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -o $@ $< -lcriterion

CHECK_BINS += $(B)/tests/bench_smoke
-include $(B)/tests/bench_smoke.d
