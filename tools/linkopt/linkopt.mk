# linkopt: the ELF table writer and inspector, a host tool.
LINKOPT_SRCS := $(sort $(wildcard tools/linkopt/*.c)) common/qbtable.c common/startread.c common/libsearch.c common/elfview.c common/elfbuf.c
LINKOPT_OBJS := $(LINKOPT_SRCS:%.c=$(B)/host/%.o)

$(B)/host/%.o: %.c
	@mkdir -p $(@D)
	@echo "HOSTCC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itools/linkopt -c -o $@ $<

$(B)/bin/linkopt: $(LINKOPT_OBJS)
	@mkdir -p $(@D)
	@echo "LINK $@"
	$(Q)$(HOSTCC) -o $@ $(LINKOPT_OBJS)

ALL_TARGETS += $(B)/bin/linkopt
-include $(LINKOPT_OBJS:.o=.d)

# The link-step wrapper: `gcc -B $(B)/lib/linkopt` optimizes every link.
LINKOPT_WRAP := $(B)/lib/linkopt/ld $(B)/lib/linkopt/ld.lld $(B)/lib/linkopt/ld.mold $(B)/lib/linkopt/ld.bfd
$(B)/lib/linkopt/ld: tools/linkopt/wrap/ld
	@mkdir -p $(@D)
	$(Q)cp $< $@ && chmod 755 $@
$(B)/lib/linkopt/ld.%: $(B)/lib/linkopt/ld
	$(Q)ln -sf ld $@
ALL_TARGETS += $(LINKOPT_WRAP)
