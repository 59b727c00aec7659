# SPDX-License-Identifier: GPL-2.0
#
# ncsync top-level Makefile.  `make` builds the module (against the headers
# of the kernel the test VM boots), the library, the tools and the
# selftests.  `make check` runs every test; `make run` runs the demonstration
# in the VM.  See README.md.

TOP	:= $(CURDIR)
BUILD	:= $(TOP)/build
KVER	?= $(shell $(TOP)/tools/kver 2>/dev/null)
KDIR	?= /lib/modules/$(KVER)/build
CC	?= cc
CFLAGS	?= -O2 -g
WFLAGS	:= -Wall -Wextra -Werror -Wno-unused-parameter
export TOP BUILD KVER KDIR CC CFLAGS WFLAGS

.PHONY: all deps module module-check lib tools selftests host check run \
	clean checkpatch install install-dkms

all: module lib tools selftests host

# Host-side tests of the shared model code (the module's own source).
host: $(BUILD)/host/model_test

$(BUILD)/host/model_test: common/test/model_test.c common/ncsync_model.c \
		common/ncsync_model.h uapi/linux/ncsync.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WFLAGS) -Iuapi -Icommon -o $@ $(filter %.c,$^)

deps:
	@$(TOP)/tools/install-deps

module:
	$(MAKE) -C $(KDIR) M=$(TOP) modules

# The module must build clean with W=1 and sparse (C=1).
module-check:
	$(MAKE) -C $(KDIR) M=$(TOP) clean >/dev/null
	$(MAKE) -C $(KDIR) M=$(TOP) W=1 C=1 modules

lib:
	$(MAKE) -C lib

tools: lib
	$(MAKE) -C tools

selftests: lib
	$(MAKE) -C selftests

checkpatch:
	@$(TOP)/tools/checkpatch

check: deps
	@$(TOP)/tools/check

run: deps all
	$(TOP)/tools/vm-run $(TOP)/build/tools/ncsync-demo

# make install [PREFIX=/usr/local] [DESTDIR=] [UDEVDIR=/etc/udev/rules.d]
PREFIX	?= /usr/local
UDEVDIR	?= /etc/udev/rules.d
DKMSVER	:= $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)

install: all
	$(MAKE) -C $(KDIR) M=$(TOP) INSTALL_MOD_PATH=$(DESTDIR) \
		INSTALL_MOD_DIR=extra CONFIG_MODULE_SIG_ALL= \
		$(if $(DESTDIR),DEPMOD=true) modules_install
	$(MAKE) -C lib install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(MAKE) -C tools install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	install -D -m 644 packaging/60-ncsync.rules \
		$(DESTDIR)$(UDEVDIR)/60-ncsync.rules

# The module's sources for dkms, in /usr/src/ncsync-VERSION.
install-dkms:
	install -d $(DESTDIR)/usr/src/ncsync-$(DKMSVER)
	cp -r Kbuild dkms.conf driver common uapi \
		$(DESTDIR)/usr/src/ncsync-$(DKMSVER)/

clean:
	$(MAKE) -C $(KDIR) M=$(TOP) clean 2>/dev/null || true
	rm -rf $(BUILD)
