# The musl image (scripts/image/): real software built from Debian's
# sources with musl-gcc, laid out as a musl distribution would with
# quickbind as its loader. `make image` builds the root filesystem and a
# tarball that docker/podman import accept, as any user (no device node
# where none can be made); the image suite, chrooted through a user
# namespace (scripts/image/chroot.sh), compares it with the same image
# under musl's loader, and builds it as an ordinary user.

IMG := $(B)/image
IMG_T := $(B)/tests/image
IMG_SCRIPTS := scripts/image/assemble.sh scripts/image/build-parts.sh tests/image/qbmod.c \
	scripts/install.sh scripts/musl/version.sh
# MUSL=VERSION: the userland is built with that musl's compiler and the
# image ships that musl's loader, over which quickbind (built on the same
# musl) is installed; otherwise Debian's musl-gcc throughout.
ifneq ($(MUSL),)
IMG_ENV := IMAGE_CC='$(MUSL_CC_x86_64)' IMAGE_MUSL_LDSO='$(MUSL_LDSO_x86_64)'
IMG_TEST_ENV := -DIMG_CC='"$(MUSL_CC_x86_64)"' -DIMG_MUSL_LDSO='"$(MUSL_LDSO_x86_64)"'
endif

.PHONY: image
image: $(IMG)/quickbind-image-x86_64.tar
	@echo "image: $(abspath $(IMG)/rootfs) and $(abspath $<)"

# (linkopt runs on the host, on the image: the host's build is a glibc
# program, which neither runs in a musl image nor lets `linkopt --root` load
# every program of it)
$(IMG)/rootfs.stamp: $(LOADER) $(IMG_SCRIPTS)
	@echo "IMAGE $(IMG)/rootfs"
	$(Q)$(IMG_ENV) scripts/image/assemble.sh $(LOADER) $(IMG)/rootfs
	$(Q)touch $@

$(IMG)/quickbind-image-x86_64.tar: $(IMG)/rootfs.stamp scripts/image/tar.sh
	@echo "TAR $@"
	$(Q)scripts/image/tar.sh $(IMG)/rootfs $@

# Fixtures of the image suite: the image under quickbind, the same image
# under musl's loader, both with the script they run, and a rebuilt libz (one more
# exported symbol) that replaces the image's after linkopt.
$(IMG_T)/qb.stamp: $(LOADER) $(IMG_SCRIPTS) tests/image/script.sh
	@mkdir -p $(@D)
	@echo "IMAGE $(IMG_T)/qb"
	$(Q)$(IMG_ENV) scripts/image/assemble.sh $(LOADER) $(IMG_T)/qb && \
		cp tests/image/script.sh $(IMG_T)/qb/script.sh && touch $@
$(IMG_T)/musl.stamp: $(IMG_SCRIPTS) tests/image/script.sh
	@mkdir -p $(@D)
	@echo "IMAGE $(IMG_T)/musl"
	$(Q)$(IMG_ENV) scripts/image/assemble.sh $(MUSL_LDSO_x86_64) $(IMG_T)/musl && \
		cp tests/image/script.sh $(IMG_T)/musl/script.sh && touch $@
$(IMG_T)/libz-rebuilt.so.1: $(IMG_SCRIPTS)
	@mkdir -p $(@D)
	$(Q)z=$$($(IMG_ENV) IMAGE_MUSL=$(MUSL_VERSION_x86_64) scripts/image/build-parts.sh | sed -n 's/^zlib=//p') && \
		cp "$$z/libz-rebuilt.so.1" $@.tmp && \
		patchelf --replace-needed libc.so libc.musl-x86_64.so.1 $@.tmp && mv $@.tmp $@

$(B)/tests/test_image.o: tests/test_image.c
	@mkdir -p $(@D)
	@echo "CC $<"
	$(Q)$(HOSTCC) $(HOST_CFLAGS) -Itests -DIMG_DIR='"$(abspath $(IMG_T))"' \
		-DIMG_LINKOPT='"$(abspath $(B)/bin/linkopt)"' -DIMG_SCRIPTS='"$(abspath scripts/image)"' \
		-DIMG_LOADER='"$(abspath $(LOADER))"' $(IMG_TEST_ENV) -c -o $@ $<
$(B)/tests/test_image: $(B)/tests/test_image.o $(B)/tests/libqbtest.a
	@echo "LD $@"
	$(Q)$(HOSTCC) -o $@ $^ -lcriterion

CHECK_DEPS += $(IMG_T)/qb.stamp $(IMG_T)/musl.stamp $(IMG_T)/libz-rebuilt.so.1
CHECK_BINS += $(B)/tests/test_image
MUSL_CHECK_DEPS += $(IMG_T)/qb.stamp $(IMG_T)/musl.stamp $(IMG_T)/libz-rebuilt.so.1
MUSL_CHECK_BINS += $(B)/tests/test_image
-include $(B)/tests/test_image.d
