# SPDX-License-Identifier: GPL-2.0
#
# ncsync top-level Makefile.  `make` builds the module (against the headers
# of the kernel the test VM boots) into build/module/ncsync.ko, the library,
# the tools and the selftests.  `make check` runs every test; `make run`
# runs the demonstration in the VM.  See README.md.
# `make check-debug` runs the debug-kernel tier (KASAN, lockdep, kmemleak,
# UBSAN, KUnit; Documentation/ncsync/debug-tier.rst).

TOP	:= $(CURDIR)
BUILD	:= $(TOP)/build
MODDIR	:= $(BUILD)/module
KVER	?= $(shell $(TOP)/tools/kver 2>/dev/null)
KDIR	?= /lib/modules/$(KVER)/build
CC	?= cc
CFLAGS	?= -O2 -g
WFLAGS	:= -Wall -Wextra -Werror -Wno-unused-parameter
export TOP BUILD KVER KDIR CC CFLAGS WFLAGS

.PHONY: all deps module module-check lib tools selftests host check run \
	clean checkpatch install install-dkms python

all: module lib tools selftests host python

# Host-side tests of the shared model code (the module's own source).
host: $(BUILD)/host/model_test

$(BUILD)/host/model_test: common/test/model_test.c common/ncsync_model.c \
		common/ncsync_record.c common/ncsync_exec.c \
		common/ncsync_encode.c common/ncsync_optab.c \
		common/ncsync_names.c \
		common/test/exec_cases.h common/test/optab_cases.h \
		common/ncsync_model.h \
		common/ncsync_record.h common/ncsync_exec.h \
		common/ncsync_effect.h common/ncsync_optab.h \
		common/ncsync_opcodes.h \
		common/ncsync_names.h uapi/linux/ncsync.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WFLAGS) -Iuapi -Icommon -o $@ $(filter %.c,$^)

deps:
	@$(TOP)/tools/install-deps

# The module builds in $(MODDIR), a directory of links to its sources
# (tools/module-tree): every kbuild product lands there, and kbuild's clean,
# which deletes every *.s, never runs over the repository (examples/).
module:
	@$(TOP)/tools/module-tree $(MODDIR)
	$(MAKE) -C $(KDIR) M=$(MODDIR) modules

# The module must build clean with W=1 and sparse (C=1): a full build in a
# fresh directory of its own, so that $(MODDIR) is left alone.
module-check:
	rm -rf $(BUILD)/w1
	@$(TOP)/tools/module-tree $(BUILD)/w1
	$(MAKE) -C $(KDIR) M=$(BUILD)/w1 W=1 C=1 modules

lib:
	$(MAKE) -C lib

tools: lib
	$(MAKE) -C tools

selftests: lib
	$(MAKE) -C selftests

# The Python package in $(BUILD)/python (Documentation/ncsync/python.rst).
python: lib
	$(MAKE) -C python

checkpatch:
	@$(TOP)/tools/checkpatch

check: deps
	@$(TOP)/tools/check

.PHONY: check-debug
check-debug: deps
	@$(TOP)/tools/check-debug

# The demonstration: boot the VM with nothing loaded; tools/run-demo loads
# the module with ncsync(1) and runs examples/barrier-loop.s under
# `ncsync monitor`.
run: deps all
	$(TOP)/tools/vm-run --no-module $(TOP)/tools/run-demo

# The benchmark (Documentation/ncsync/performance.rst): run in the test VM,
# results in build/bench/results.json, the plot drawn on the host into
# Documentation/ncsync/images/bench.png.  Not part of `make check`.
# BENCH_ARGS=--quick for a short run.
BENCH_ARGS ?=

.PHONY: bench
bench: deps all
	$(MAKE) -C bench
	NCSYNC_VM_SCRATCH=$(BUILD)/bench \
	NCSYNC_BENCH_HOST="$$(uname -sr), $$(nproc) CPUs, load $$(cut -d' ' -f1-3 /proc/loadavg)" \
		$(TOP)/tools/vm-run -p 'cores=4' $(BUILD)/bench/ncsync-bench \
		--json $(BUILD)/bench/results.json $(BENCH_ARGS)
	$(TOP)/bench/plot.sh $(BUILD)/bench/results.json \
		$(TOP)/Documentation/ncsync/images/bench.png

# ncsync_check() in states per second on the examples, on the host, and
# SPIN on their Promela models (Documentation/ncsync/check.rst), with
# counter barriers, then with event barriers.  A
# measurement, not part of `make check`.
.PHONY: bench-check
bench-check: all
	$(MAKE) -C bench
	$(BUILD)/bench/check-bench
	$(BUILD)/bench/check-bench --lowering events

# Fuzzing (Documentation/ncsync/fuzzing.rst): the libFuzzer targets on the
# host, FUZZ_TIME seconds each, then the syscall fuzzer in the VM for
# FUZZ_TIME seconds; TAP.  `make fuzz-short` is the short run of make check.
FUZZ_TIME ?= 60

.PHONY: fuzz fuzz-short
fuzz: deps module tools
	$(MAKE) -C fuzz run FUZZ_TIME=$(FUZZ_TIME)

fuzz-short: deps module tools
	$(MAKE) -C fuzz run FUZZ_TIME=20

# make install [PREFIX=/usr/local] [DESTDIR=] [UDEVDIR=/etc/udev/rules.d]
PREFIX	?= /usr/local
UDEVDIR	?= /etc/udev/rules.d
DKMSVER	:= $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)

# It builds only what it installs: the module, the library, the tool and
# the Python package.
install: module
	$(MAKE) -C $(KDIR) M=$(MODDIR) INSTALL_MOD_PATH=$(DESTDIR) \
		INSTALL_MOD_DIR=extra CONFIG_MODULE_SIG_ALL= \
		$(if $(DESTDIR),DEPMOD=true) modules_install
	$(MAKE) -C lib install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(MAKE) -C tools install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(MAKE) -C python install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	install -D -m 644 packaging/60-ncsync.rules \
		$(DESTDIR)$(UDEVDIR)/60-ncsync.rules

# The module's sources for dkms, in /usr/src/ncsync-VERSION: the tree
# tools/module-tree makes (copies of the Kbuild, dkms.conf and the sources;
# no build product), and nothing is built.  Then
# `dkms install ncsync/VERSION -k KVER` (README.md).
install-dkms:
	$(TOP)/tools/module-tree --copy $(DESTDIR)/usr/src/ncsync-$(DKMSVER)

# build/, and what the module's build in the repository itself left before
# it moved to $(MODDIR).
clean:
	rm -rf $(BUILD)
	rm -f ncsync.ko ncsync.o ncsync.mod ncsync.mod.[co] Module.symvers \
		modules.order .*.cmd
	find driver common -name '*.o' -o -name '.*.cmd' | xargs rm -f