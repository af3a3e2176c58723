# linkopt's application view (issue 13): tests/test_linkopt_app.c builds
# the fixtures of tests/linkopt_app/ with each configured architecture's
# musl compiler and runs them under musl's loader and quickbind.
LOAPP_BIN := $(B)/tests/test_linkopt_app

$(LOAPP_BIN): tests/test_linkopt_app.c tests/linkopt_app.mk $(B)/tests/libqbtest.a
	@mkdir -p $(@D)
	@echo "CC $@"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DLOAPP_ARCHS='"$(ARCHS)"' -DLOAPP_SRC_DIR='"$(abspath tests/linkopt_app)"' \
		-DLOAPP_LOADER_DIR='"$(abspath $(B)/lib)"' \
		-DLOAPP_IMG_DIR='"$(abspath $(B)/tests/image)"' -DLOAPP_IMG_COPY='"$(abspath scripts/image/copy.sh)"' \
		-DLINKOPT_BIN='"$(abspath $(B)/bin/linkopt)"' \
		-o $@ tests/test_linkopt_app.c $(B)/tests/libqbtest.a -lcriterion

CHECK_DEPS += $(B)/bin/linkopt $(foreach a,$(ARCHS),$(B)/lib/ld-quickbind-$(a).so.1)
CHECK_BINS += $(LOAPP_BIN)

.PHONY: check-linkopt-app
check-linkopt-app: $(B)/tests/image/qb.stamp $(B)/bin/linkopt $(foreach a,$(ARCHS),$(B)/lib/ld-quickbind-$(a).so.1) $(LOAPP_BIN)
	$(LOAPP_BIN) --jobs=2
