# tests/lib/: the one test harness every suite links (running a program
# under a loader, shell lines and command output, reading and comparing
# files, temporary directories, fixture paths, comparing with musl's
# loader, reading LD_DEBUG statistics, finding lines in output). An
# archive, so a suite pulls in what it uses.
# compare.c is the exception: each suite compiles it with its own loader
# and fixture root (LT_LOADER, LT_FIXTURES, LT_MUSL_LDSO).
TESTLIB_OBJS := $(patsubst tests/lib/%.c,$(B)/tests/lib/%.o,$(filter-out %/compare.c,$(wildcard tests/lib/*.c)))

$(B)/tests/lib/%.o: tests/lib/%.c tests/lib.mk
	@mkdir -p $(@D)
	@echo "CC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -c -o $@ $<

$(B)/tests/libqbtest.a: $(TESTLIB_OBJS)
	@echo "AR $@"
	$(Q)rm -f $@ && ar rcs $@ $^

-include $(TESTLIB_OBJS:.o=.d)
