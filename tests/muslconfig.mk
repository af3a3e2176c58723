# configure's check of musl's facts and make install's check of an image's
# musl (tests/test_musl_config.c, issue 26), against copies of the
# configured x86_64 musl changed by tests/muslconfig/fakemusl.sh.
#   make check-muslconfig [MUSL=VERSION]
MC_BIN := $(B)/tests/test_musl_config

$(MC_BIN).o: tests/test_musl_config.c tests/muslconfig.mk $(CONFIG)
	@mkdir -p $(@D)
	@echo "CC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DMC_TOP='"$(abspath .)"' -DMC_LIBDIR='"$(MUSL_LIBDIR_x86_64)"' \
		-DMC_VERSION='"$(MUSL_VERSION_x86_64)"' -DMC_BUILD='"$(abspath $(B))"' \
		-DMC_MAKE_ARGS='"$(if $(MUSL),MUSL=$(MUSL))"' -c -o $@ $<
$(MC_BIN): $(MC_BIN).o $(B)/tests/libqbtest.a
	@echo "LD $@"
	$(Q)$(HOSTCC) -o $@ $^ -lcriterion

CHECK_BINS += $(MC_BIN)
MUSL_CHECK_BINS += $(MC_BIN)

.PHONY: check-muslconfig
check-muslconfig: all $(MC_BIN)
	$(MC_BIN) --jobs=2
-include $(MC_BIN).d
