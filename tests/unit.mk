# Unit tests of the loader pieces that work alone, built for the host.
UNIT_SRCS := tests/test_unit_hash.c tests/test_unit_pathexp.c tests/test_unit_dynamic.c tests/test_unit_elfview.c tests/test_unit_libsearch.c tests/test_unit_secureenv.c \
	tests/test_unit_switches.c
UNIT_LIB_SRCS := common/elfview.c ldso/pathexp.c common/libsearch.c ldso/secureenv.c
UNIT_BIN := $(B)/tests/unit

$(UNIT_BIN): $(UNIT_SRCS:%.c=$(B)/host/%.o) $(UNIT_LIB_SRCS:%.c=$(B)/host/%.o)
	@mkdir -p $(@D)
	@echo "LINK $@"
	$(Q)$(HOSTCC) -o $@ $^ -lcriterion

$(B)/host/ldso/%.o: ldso/%.c
	@mkdir -p $(@D)
	@echo "HOSTCC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Ildso -c -o $@ $<

$(B)/host/tests/test_unit_%.o: tests/test_unit_%.c
	@mkdir -p $(@D)
	@echo "HOSTCC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Ildso -Iarch/x86_64 -c -o $@ $<

# the switch test reads the loader's environment table (docs/LOADER.md) and
# asks the loader for its --help
$(B)/host/tests/test_unit_switches.o: HOST_CFLAGS += -DQB_LOADER_DOC='"$(abspath docs/LOADER.md)"' \
	-DQB_LOADER='"$(abspath $(LOADER))"'

CHECK_BINS += $(UNIT_BIN)
-include $(UNIT_SRCS:%.c=$(B)/host/%.d) $(UNIT_LIB_SRCS:%.c=$(B)/host/%.d)
