# SPDX-License-Identifier: GPL-2.0
# kbloom: Bloom filters in the Linux kernel and on the XDP fast path.
#
#   make              module, BPF objects and skeletons, library, kbloomctl
#   make deps         install the missing Debian packages
#   make check        every suite (core, bpf, kmod, style); one totals line
#   make check-core | check-bpf | check-kmod | check-style
#   make demo         the narrated tour
#   make bench [BENCH=group]
#   make soak [SOAK_SECONDS=N]   the packet paths under change, N s (300)
#   make fuzz         libFuzzer over the image loaders, 60 s each
#   make install | install-user | install-module | install-headers
#   make uninstall | clean
#   make dkms | install-dkms-src | dkms-remove | deb | deb-symbols
#   (PREFIX, DESTDIR, LIBDIR, SBINDIR, INCLUDEDIR, MANDIR; KDIR=tree)
#
# Everything built goes to build/.  V=1 shows the commands.

SHELL := /bin/bash
.DEFAULT_GOAL := all
.SUFFIXES:
.DELETE_ON_ERROR:

V ?= 0
ifeq ($(V),1)
Q :=
say := @true
else
Q := @
say := @printf '  %-9s %s\n'
MAKEFLAGS += --no-print-directory
endif

B := build
CACHE := $(B)/cache
LSRC := $(CACHE)/linux-source
KSFT := $(LSRC)/tools/testing/selftests
# KDIR from the command line or the environment: make hands neither to
# $(shell), so it goes to mk/kver.sh explicitly; without it, the release
# of the installed linux-headers-amd64.
ifeq ($(origin KDIR),undefined)
KVER = $(shell mk/kver.sh)
KDIR = /usr/src/linux-headers-$(KVER)
else
KVER = $(shell KDIR='$(KDIR)' mk/kver.sh)
endif

# Versions: VERSION (MAJOR.MINOR.PATCH); the library's SONAME carries MAJOR.
VERSION := $(shell cat VERSION)
SO_MAJOR := $(word 1,$(subst ., ,$(VERSION)))
SO_MINOR := $(word 2,$(subst ., ,$(VERSION)))
SONAME := libkbloom.so.$(SO_MAJOR)
SO_REAL := $(SONAME).$(SO_MINOR)

# Install directories (GNU names); DESTDIR is prepended to each.
PREFIX ?= /usr/local
SBINDIR ?= $(PREFIX)/sbin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
MANDIR ?= $(PREFIX)/share/man
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
MODDIR ?= /lib/modules/$(KVER)/updates

CC := gcc
CLANG ?= clang
BPFTOOL ?= bpftool
ARCH_INC := /usr/include/$(shell $(CC) -dumpmachine)

WARN := -Wall -Wextra -Wno-unused-parameter
INCS := -I. -Iuserspace/include -I$(B)
CFLAGS ?= -O2 -g
ALL_CFLAGS := $(CPPFLAGS) $(CFLAGS) $(WARN) $(INCS) -MMD -MP -D_GNU_SOURCE
# The core suite's sanitizer builds at -O1, as ASan's documentation
# suggests: at -O2 its library and tests took 1.6x the compile time.
ASAN := -O1 -fsanitize=address,undefined -fno-omit-frame-pointer
BPF_CFLAGS := -g -O2 -target bpf -D__TARGET_ARCH_x86 -Wall -I. -I$(B) -I$(ARCH_INC)
LIBS := -lxdp -lbpf -lelf -lz -lm -lpthread

# --- sources ---------------------------------------------------------------
LIB_SRCS := $(wildcard userspace/lib/*.c userspace/lib/*/*.c)
LIB_OBJS := $(LIB_SRCS:%.c=$(B)/obj/%.o)
LIB_PIC_OBJS := $(LIB_SRCS:%.c=$(B)/pic/%.o)
LIB_ASAN_OBJS := $(LIB_SRCS:%.c=$(B)/asan/%.o)
CTL_SRCS := $(wildcard userspace/kbloomctl/*.c userspace/kbloomctl/*/*.c)
CTL_OBJS := $(CTL_SRCS:%.c=$(B)/obj/%.o)
TCOMMON_SRCS := $(wildcard tests/common/*.c)

BPF_SRCS := $(wildcard bpf/*.bpf.c)
BPF_OBJS := $(BPF_SRCS:bpf/%.bpf.c=$(B)/bpf/%.bpf.o)
BPF_SKELS := $(BPF_SRCS:bpf/%.bpf.c=$(B)/bpf/%.skel.h)

SUITES := core bpf kmod
suite_srcs = $(filter-out %.bpf.c,$(wildcard tests/$(1)/*.c))
CORE_TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(call suite_srcs,core))
BPF_TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(call suite_srcs,bpf))
KMOD_TESTS := $(patsubst tests/%.c,$(B)/tests/%,$(call suite_srcs,kmod))
TEST_BPF_SRCS := $(wildcard tests/bpf/*.bpf.c tests/kmod/*.bpf.c)
TEST_BPF_OBJS := $(TEST_BPF_SRCS:tests/%.bpf.c=$(B)/tests/%.bpf.o)
TEST_BPF_SKELS := $(TEST_BPF_SRCS:tests/%.bpf.c=$(B)/tests/%.skel.h)
BENCH_SRCS := $(filter-out %.bpf.c,$(wildcard tests/bench/*.c))
BENCH_BPF_SRCS := $(wildcard tests/bench/*.bpf.c)
BENCH_SKELS := $(BENCH_BPF_SRCS:tests/%.bpf.c=$(B)/tests/%.skel.h)
BENCH_BINS := $(BENCH_SRCS:tests/bench/%.c=$(B)/bench/%)

KMOD_SRCS := Kbuild $(wildcard kmod/*.c kmod/*.h uapi/*.h)

.PHONY: all deps kmod bpf lib ctl tests check check-core check-bpf \
	check-kmod check-style check-all demo bench fuzz install install-headers \
	install-user install-module uninstall install-dkms-src dkms dkms-remove deb \
	deb-symbols \
	clean checkpatch

all: kmod bpf lib ctl

deps:
	$(Q)mk/deps.sh

# --- module ----------------------------------------------------------------
# Built in a copy of its sources under build/kmod so that no object file
# lands in the source tree.  Then its BTF (the kfuncs need it): pahole -J
# against the target kernel's BTF (mk/btf.sh base: the running kernel's,
# KDIR's vmlinux, else Debian's linux-image of that release) and
# resolve_btfids, both prepared once in the build cache by mk/btf.sh.
# When no BTF can be had (or KBLOOM_BTF=no), the module is built without
# kfuncs: one warning line, "kfuncs: no" in modinfo and in the kernel log
# at load; the empty marker of that is removed once used, so that the
# next build looks again.
kmod: $(B)/kbloom.ko

KBLOOM_BTF ?= auto
BTF_SRC := $(CACHE)/linux-btf-src
RESOLVE_BTFIDS := $(CACHE)/btf/resolve_btfids
KBTF = $(CACHE)/btf/$(KVER)/vmlinux.btf

# Its BTF prerequisite names the kernel release: left out when every goal
# is one of the userspace ones, so that they (make install-user, the
# library, a single test) never ask for a kernel tree.
USER_GOALS := bpf lib ctl install-user install-headers uninstall clean deps \
	install-dkms-src dkms-remove deb deb-symbols \
	$(B)/%
ifneq ($(MAKECMDGOALS),)
ifeq ($(filter-out $(USER_GOALS),$(MAKECMDGOALS)),)
KBTF :=
endif
endif
ifeq ($(KBLOOM_BTF),no)
KBTF :=
endif

# y when the base BTF is there (read when the recipe runs, after it is made)
kb_kfuncs = $(if $(KBTF),$(if $(shell test -s '$(KBTF)' && echo y),y,n),n)

$(B)/kbloom.ko: $(KMOD_SRCS) VERSION $(KBTF) mk/btf.sh
	$(say) KMOD "$@ ($(KVER))"
	$(Q)mkdir -p $(B)/kmod
	$(Q)rsync -a --delete --exclude='/build' --exclude='/tests' \
		--exclude='/userspace' --exclude='/bpf' --exclude='/.git' \
		--include='*/' --include='Kbuild' --include='/VERSION' --include='*.c' \
		--include='*.h' --exclude='*' --prune-empty-dirs ./ $(B)/kmod/
	$(Q)$(MAKE) -C $(KDIR) M=$(abspath $(B))/kmod $(if $(filter 1,$(V)),V=1,-s) \
		CONFIG_DEBUG_INFO_BTF_MODULES= KBLOOM_KFUNCS=$(kb_kfuncs) modules
	$(say) BTF "$@"
	$(Q)KDIR=$(KDIR) KBLOOM_BTF_SRC=$(BTF_SRC) mk/btf.sh module \
		$(B)/kmod/kbloom.ko '$(KBTF)' $(RESOLVE_BTFIDS) $@
	$(Q)$(if $(KBTF),$(if $(filter n,$(kb_kfuncs)),rm -f $(KBTF) $(KBTF).why))

$(BTF_SRC)/.extracted:
	$(Q)mk/btf.sh src $(BTF_SRC)

$(RESOLVE_BTFIDS): | $(BTF_SRC)/.extracted
	$(Q)mk/btf.sh resolve-btfids $(BTF_SRC) $@

$(CACHE)/btf/%/vmlinux.btf:
	$(Q)KDIR=$(KDIR) mk/btf.sh base $* $(BTF_SRC) $@

# --- BPF objects and skeletons -----------------------------------------------
bpf: $(BPF_OBJS) $(BPF_SKELS)

$(B)/bpf/%.bpf.o: bpf/%.bpf.c
	$(say) BPF $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -MMD -MP -c $< -o $@

# the sketch moves shared counters with compare-and-exchange (BPF v3)
$(B)/bpf/kbloom_countmin.bpf.o: BPF_CFLAGS += -mcpu=v3
# the window moves its generation start by compare-and-exchange (BPF v3)
$(B)/bpf/kbloom_window.bpf.o: BPF_CFLAGS += -mcpu=v3
# the loss digest folds with atomic XOR (BPF v3)
$(B)/bpf/kbloom_loss_digest.bpf.o: BPF_CFLAGS += -mcpu=v3
# the kfunc paths store a resolved filter id by compare-and-exchange (BPF v3)
$(B)/bpf/kbloom_kfunc_gate.bpf.o $(B)/bpf/kbloom_kfunc_mcast.bpf.o \
$(B)/tests/kmod/kfunc_bench.bpf.o: BPF_CFLAGS += -mcpu=v3

$(B)/tests/%.bpf.o: tests/%.bpf.c
	$(say) BPF $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) $(BPF_CFLAGS) -MMD -MP -c $< -o $@

$(B)/%.skel.h: $(B)/%.bpf.o
	$(say) SKEL $@
	$(Q)$(BPFTOOL) gen skeleton $< name $(subst -,_,$(notdir $*)) > $@.tmp
	$(Q)mv $@.tmp $@

$(B)/vmlinux.h:
	$(say) GEN $@
	$(Q)mkdir -p $(@D)
	$(Q)$(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@.tmp
	$(Q)mv $@.tmp $@

# --- library and kbloomctl ---------------------------------------------------
lib: $(B)/libkbloom.a $(B)/libkbloom.so

$(B)/obj/%.o: %.c | $(BPF_SKELS)
	$(say) CC $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -c $< -o $@

$(B)/pic/%.o: %.c | $(BPF_SKELS)
	$(say) CC $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -fPIC -c $< -o $@

$(B)/asan/%.o: %.c | $(BPF_SKELS)
	$(say) CC $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $(ASAN) -c $< -o $@

$(B)/libkbloom.a: $(LIB_OBJS)
	$(say) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)/libkbloom-asan.a: $(LIB_ASAN_OBJS)
	$(say) AR $@
	$(Q)rm -f $@ && ar rcs $@ $^

# The shared library exports the functions of the public headers only
# (mk/libsyms.sh writes the version script); its real name carries
# MAJOR.MINOR, its SONAME MAJOR, and the two names beside it link to it.
PUB_HDRS := $(wildcard userspace/include/*.h)
SO_LIBS := -lxdp -lbpf -lm -lpthread

$(B)/libkbloom.map: $(LIB_PIC_OBJS) $(PUB_HDRS) mk/libsyms.sh
	$(say) GEN $@
	$(Q)mk/libsyms.sh KBLOOM_$(SO_MAJOR) $@ $(PUB_HDRS) -- $(LIB_PIC_OBJS)

$(B)/$(SO_REAL): $(LIB_PIC_OBJS) $(B)/libkbloom.map
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -shared -Wl,-soname,$(SONAME) -Wl,-z,defs \
		-Wl,--version-script,$(B)/libkbloom.map -o $@ $(LIB_PIC_OBJS) $(SO_LIBS)

$(B)/libkbloom.so: $(B)/$(SO_REAL)
	$(Q)ln -sf $(SO_REAL) $(B)/$(SONAME)
	$(Q)ln -sf $(SONAME) $@

ctl: $(B)/kbloomctl

$(B)/kbloomctl: $(CTL_OBJS) $(B)/libkbloom.a
	$(say) LD $@
	$(Q)$(CC) $(LDFLAGS) -o $@ $(CTL_OBJS) $(B)/libkbloom.a $(LIBS)

# --- tests -------------------------------------------------------------------
# Each tests/<suite>/<name>.c is one kselftest-harness program; the core
# suite runs under ASan and UBSan.
TEST_CFLAGS = $(ALL_CFLAGS) -Wno-sign-compare -I$(KSFT) -Itests
tests: $(CORE_TESTS) $(BPF_TESTS) $(KMOD_TESTS) $(TEST_BPF_OBJS) $(TEST_BPF_SKELS)

$(KSFT)/kselftest_harness.h:
	$(say) EXTRACT "kselftest harness, checkpatch (linux-source-6.1)"
	$(Q)mk/linux-source.sh $(LSRC)

$(B)/tests/core/%: tests/core/%.c $(TCOMMON_SRCS) $(B)/libkbloom-asan.a $(KSFT)/kselftest_harness.h
	$(say) TEST $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(TEST_CFLAGS) $(ASAN) -o $@ $< $(TCOMMON_SRCS) $(B)/libkbloom-asan.a $(LIBS)

$(B)/tests/bpf/%: tests/bpf/%.c $(TCOMMON_SRCS) $(B)/libkbloom.a $(KSFT)/kselftest_harness.h $(TEST_BPF_SKELS) $(BPF_SKELS) $(BPF_OBJS)
	$(say) TEST $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(TEST_CFLAGS) -o $@ $< $(TCOMMON_SRCS) $(B)/libkbloom.a $(LIBS)

$(B)/tests/kmod/%: tests/kmod/%.c tests/kmod/guest_harness.h $(TCOMMON_SRCS) $(B)/libkbloom.a $(KSFT)/kselftest_harness.h $(TEST_BPF_SKELS) $(BPF_SKELS)
	$(say) TEST $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(TEST_CFLAGS) -o $@ $< $(TCOMMON_SRCS) $(B)/libkbloom.a $(LIBS)

# The kmod suite's ioctl tests also as static 32-bit programs (NAME-m32,
# gcc-multilib), run by the suite against the same module: the compat
# path of a 32-bit caller.
KMOD32_NAMES := ioctl cmd_length count concurrency registry_replace device fuzz layout readonly
KMOD32_TESTS := $(KMOD32_NAMES:%=$(B)/tests/kmod/%_test-m32)
tests: $(KMOD32_TESTS)

$(B)/tests/kmod/%-m32: tests/kmod/%.c tests/kmod/kmod_util.h tests/kmod/guest_harness.h $(KSFT)/kselftest_harness.h
	$(say) TEST32 $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(TEST_CFLAGS) -m32 -static -Wno-pointer-to-int-cast -o $@ $< -lpthread

# The module without BTF (issue 17), built with the tests: the core
# suite's nobtf_test checks this build (its status and its stderr are kept
# beside it), the kmod suite's nobtf_test loads the module in the guest,
# which then need not wait for the core suite.
NOBTF := $(B)/nobtf
tests: $(NOBTF)/make.status

$(NOBTF)/make.status: $(KMOD_SRCS) VERSION mk/btf.sh
	$(say) KMOD "$(NOBTF)/kbloom.ko (no BTF)"
	$(Q)rm -rf $(NOBTF) && mkdir -p $(NOBTF)
	$(Q)KBLOOM_BTF_FROM=none $(MAKE) -s kmod B=$(NOBTF) CACHE=$(NOBTF)/cache \
		2>$(NOBTF)/make.err >/dev/null; echo $$? >$@.tmp
	$(Q)mv $@.tmp $@

# What the kmod suite's guest runs: built first, so that the guest starts
# while the rest builds.
KMOD_SUITE_PROGS := $(B)/kbloom.ko $(NOBTF)/make.status $(BPF_OBJS) \
	$(B)/kbloomctl $(KMOD_TESTS) $(KMOD32_TESTS)
.PHONY: kmod-suite-progs
kmod-suite-progs: $(KMOD_SUITE_PROGS)

# The build on every core (make check's own make runs one job at a time
# unless -j is given: a fresh clone's build then took half of it).  make
# check builds what the guest runs first; tests/check.sh starts the guest
# (the longest suite) and builds the rest beside it (--build).
NPROC := $(shell nproc 2>/dev/null || echo 1)

check: deps
	$(Q)$(MAKE) -j$(NPROC) kmod-suite-progs
	$(Q)$(MAKE) check-all SUITES_RUN="$(SUITES) style" CHECK_BUILD=1

check-core check-bpf check-kmod check-style: deps
	$(Q)$(MAKE) -j$(NPROC) all tests
	$(Q)$(MAKE) check-all SUITES_RUN="$(@:check-%=%)"

# the core suite's install_test checks the Debian packages: tests/check.sh
# builds them (make deb) before the core suite
check-all: $(if $(CHECK_BUILD),kmod-suite-progs,all tests) $(KSFT)/kselftest_harness.h
	$(Q)$(if $(CHECK_BUILD),KBLOOM_CHECK_BUILD="$(MAKE) -j$(NPROC) all tests") \
		tests/check.sh $(SUITES_RUN)

# --- style -------------------------------------------------------------------
checkpatch: $(KSFT)/kselftest_harness.h
	$(Q)tests/check.sh style

# --- demo, benchmarks, fuzzing -------------------------------------------------
demo: deps
	$(Q)$(MAKE) all tests
	$(Q)tests/demo.sh

bench: deps
	$(Q)$(MAKE) all tests $(BENCH_BINS)
	$(Q)tests/bench/run.sh $(BENCH)

# The packet paths under change (tests/bpf/soak_test.c, root): make check
# runs it for 30 s in the bpf suite, make soak for SOAK_SECONDS.
SOAK_SECONDS ?= 300
.PHONY: soak
soak: deps
	$(Q)$(MAKE) all $(B)/tests/bpf/soak_test
	$(Q)SOAK_SECONDS=$(SOAK_SECONDS) $(B)/tests/bpf/soak_test

$(B)/bench/%: tests/bench/%.c $(B)/libkbloom.a
	$(say) BENCH $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -O3 -march=native -Itests -o $@ $< $(B)/libkbloom.a -lbloom $(LIBS)

# Benchmark BPF programs (tests/bench/*.bpf.c) build as the tests' do;
# the xdp and live groups include their skeletons.
.SECONDARY: $(BENCH_SKELS:.skel.h=.bpf.o)
$(B)/bench/xdp: $(B)/tests/bench/xdp_bench.skel.h
$(B)/bench/live: $(B)/tests/bench/live_bench.skel.h
$(B)/bench/dleft: $(B)/tests/bench/dleft_bench.skel.h
$(B)/bench/stable: $(B)/tests/bench/stable_bench.skel.h
$(B)/bench/loss: $(B)/tests/bench/loss_bench.skel.h
# the loss digest folds with atomic XOR (BPF v3)
$(B)/tests/bench/loss_bench.bpf.o: BPF_CFLAGS += -mcpu=v3
# the d-left tracker: 32-bit subregisters and jumps (BPF v3) cut the
# zero-extending shifts of its u32 cell and word arithmetic
$(B)/bpf/kbloom_dleft_ct.bpf.o $(B)/tests/bench/dleft_bench.bpf.o: BPF_CFLAGS += -mcpu=v3
$(B)/bench/gate: $(B)/tests/bench/gate_bench.skel.h

# The kmod group runs in the qemu guest (tests/bench/kmod.sh): no
# -march=native.
$(B)/bench/kmod: tests/bench/kmod.c $(B)/libkbloom.a
	$(say) BENCH $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -O3 -Itests -o $@ $< $(B)/libkbloom.a $(LIBS)

# The kfunc group runs in the qemu guest (tests/bench/kfunc.sh): no
# -march=native, and the skeleton of its programs.
$(B)/bench/kfunc: tests/bench/kfunc.c $(B)/tests/kmod/kfunc_bench.skel.h
	$(say) BENCH $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -Itests -o $@ $< $(LIBS)

FUZZ_SECONDS ?= 60
FUZZ_TARGETS := image_fuzz vicbf_fuzz variant_fuzz persistent_fuzz ipbf_fuzz splitblock_fuzz \
	survey_count_fuzz iblt_fuzz survey_c_fuzz
fuzz: deps
	$(Q)$(MAKE) $(addprefix $(B)/fuzz/,$(FUZZ_TARGETS))
	$(Q)tests/fuzz/run.sh $(B)/fuzz $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# the image loaders need only the core of the library and the sketch
FUZZ_LIB_SRCS := $(wildcard userspace/lib/core/*.c) \
	$(addprefix userspace/lib/sketch/,sketch.c sketch_image.c)
$(B)/fuzz/image_fuzz: tests/fuzz/image_fuzz.c tests/fuzz/fuzz_seed.h $(FUZZ_LIB_SRCS)
	$(say) FUZZ $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined $(INCS) -D_GNU_SOURCE \
		-o $@ $< $(FUZZ_LIB_SRCS) -lm

# the version-3 contract and the VI-CBF loader: the vicbf family alone
FUZZ_VI_SRCS := $(wildcard userspace/lib/vicbf/*.c)
$(B)/fuzz/vicbf_fuzz: tests/fuzz/vicbf_fuzz.c tests/fuzz/fuzz_seed.h tests/fuzz/fuzz_crc.h $(FUZZ_VI_SRCS) \
		$(wildcard uapi/*.h userspace/lib/vicbf/*.h)
	$(say) FUZZ $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined $(INCS) -D_GNU_SOURCE \
		-o $@ $< $(FUZZ_VI_SRCS) -lm

# the cuckoo, d-left, partitioned and scalable loaders: the core and the families
FUZZ_VAR_SRCS := $(wildcard userspace/lib/core/*.c userspace/lib/cuckoo/*.c) \
	$(addprefix userspace/lib/dleft/,dleft.c dleft_cell.c dleft_image.c) \
	$(wildcard userspace/lib/partitioned/*.c userspace/lib/scalable/*.c) \
	$(wildcard userspace/lib/window/*.c) \
	$(addprefix userspace/lib/stable/,stable.c stable_image.c stable_keys.c) \
	$(wildcard userspace/lib/deletable/*.c)
$(B)/fuzz/variant_fuzz: tests/fuzz/variant_fuzz.c tests/fuzz/fuzz_seed.h \
		tests/fuzz/fuzz_crc.h tests/fuzz/variant_fuzz_deletable.h $(FUZZ_VAR_SRCS) \
		$(wildcard uapi/*.h userspace/lib/cuckoo/*.h userspace/lib/dleft/*.h \
			   userspace/lib/partitioned/*.h userspace/lib/scalable/*.h \
			   userspace/lib/stable/*.h userspace/lib/window/*.h \
			   userspace/lib/deletable/*.h)
	$(say) FUZZ $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined $(INCS) -D_GNU_SOURCE \
		-o $@ $< $(FUZZ_VAR_SRCS) -lbpf -lm -lpthread

# the shifting, distance-sensitive and matrix loaders: the core and theirs
FUZZ_SVC_SRCS := $(wildcard userspace/lib/core/*.c) \
	$(addprefix userspace/lib/survey/,shifting.c shifting_image.c \
		distance_sensitive.c distance_sensitive_image.c \
		matrix.c matrix_image.c matrix_similar.c)
$(B)/fuzz/survey_c_fuzz: tests/fuzz/survey_c_fuzz.c tests/fuzz/fuzz_seed.h \
		tests/fuzz/fuzz_crc.h $(FUZZ_SVC_SRCS) \
		$(wildcard uapi/*.h userspace/lib/survey/*.h)
	$(say) FUZZ $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined $(INCS) -D_GNU_SOURCE \
		-o $@ $< $(FUZZ_SVC_SRCS) -lm -lpthread

# the persistent archive loader: the core and the persistent family
FUZZ_PERS_SRCS := $(wildcard userspace/lib/core/*.c userspace/lib/persistent/*.c)
$(B)/fuzz/persistent_fuzz: tests/fuzz/persistent_fuzz.c tests/fuzz/fuzz_seed.h \
		tests/fuzz/fuzz_crc.h $(FUZZ_PERS_SRCS) \
		$(wildcard uapi/*.h userspace/lib/persistent/*.h)
	$(say) FUZZ $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined $(INCS) -D_GNU_SOURCE \
		-o $@ $< $(FUZZ_PERS_SRCS) -lm -lpthread

# the in-packet headers (LIPSIN, MSBF, yes-no): the net family
FUZZ_IPBF_SRCS := $(wildcard userspace/lib/core/*.c userspace/lib/net/*.c)
$(B)/fuzz/ipbf_fuzz: tests/fuzz/ipbf_fuzz.c tests/fuzz/fuzz_seed.h $(FUZZ_IPBF_SRCS) \
		$(wildcard uapi/*.h userspace/lib/net/*.h)
	$(say) FUZZ $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined $(INCS) -D_GNU_SOURCE \
		-o $@ $< $(FUZZ_IPBF_SRCS) -lm -lpthread

# the survey IV loaders with images: one-hashing, split-block, Parquet bitsets
FUZZ_SB_SRCS := $(addprefix userspace/lib/survey/,onehash.c onehash_image.c \
	splitblock.c splitblock_keys.c splitblock_image.c)
$(B)/fuzz/splitblock_fuzz: tests/fuzz/splitblock_fuzz.c tests/fuzz/fuzz_seed.h \
		tests/fuzz/fuzz_crc.h $(FUZZ_SB_SRCS) \
		$(wildcard uapi/*.h userspace/lib/survey/*.h)
	$(say) FUZZ $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined $(INCS) -D_GNU_SOURCE \
		-o $@ $< $(FUZZ_SB_SRCS) -lm

# the accurate counting, FP-CBF, retouched and generalized loaders
FUZZ_SVC_SRCS := $(addprefix userspace/lib/survey/,survey_array.c acbf.c acbf_levels.c \
	fpcbf.c rbf.c gbf.c)
$(B)/fuzz/survey_count_fuzz: tests/fuzz/survey_count_fuzz.c tests/fuzz/fuzz_seed.h \
		tests/fuzz/fuzz_crc.h $(FUZZ_SVC_SRCS) \
		$(wildcard uapi/*.h userspace/lib/survey/*.h)
	$(say) FUZZ $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined $(INCS) -D_GNU_SOURCE \
		-o $@ $< $(FUZZ_SVC_SRCS) -lm

# the IBLT loader: the iblt family alone
FUZZ_IBLT_SRCS := $(addprefix userspace/lib/iblt/,iblt.c iblt_decode.c iblt_file.c iblt_image.c)
$(B)/fuzz/iblt_fuzz: tests/fuzz/iblt_fuzz.c tests/fuzz/fuzz_seed.h \
		tests/fuzz/fuzz_crc.h $(FUZZ_IBLT_SRCS) \
		$(wildcard uapi/*.h userspace/lib/iblt/*.h)
	$(say) FUZZ $@
	$(Q)mkdir -p $(@D)
	$(Q)$(CLANG) -g -O1 -fsanitize=fuzzer,address,undefined $(INCS) -D_GNU_SOURCE \
		-o $@ $< $(FUZZ_IBLT_SRCS) -lm

# --- install -------------------------------------------------------------------
# install-user: the library (shared, static, pkg-config), the headers,
# kbloomctl, its man page and bash completion; it needs no kernel tree.
# install-module: kbloom.ko into $(MODDIR), then depmod (when DESTDIR is
# empty).  uninstall removes what both put in place.  The XDP loaders need
# no BPF object at run time: each is built into the library as a skeleton.
MAN8 := doc/kbloomctl.8
INST_SO := $(SO_REAL) $(SONAME) libkbloom.so libkbloom.a
INST_HDRS := $(notdir $(PUB_HDRS))
INST_UAPI := $(notdir $(wildcard uapi/*.h))

install: install-user install-module

install-user: lib ctl $(B)/kbloomctl.bash install-headers
	install -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR)
	install -m 0755 $(B)/$(SO_REAL) $(DESTDIR)$(LIBDIR)/
	ln -sf $(SO_REAL) $(DESTDIR)$(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(DESTDIR)$(LIBDIR)/libkbloom.so
	install -m 0644 $(B)/libkbloom.a $(DESTDIR)$(LIBDIR)/
	sed -e 's|@PREFIX@|$(PREFIX)|; s|@LIBDIR@|$(LIBDIR)|' \
		-e 's|@INCLUDEDIR@|$(INCLUDEDIR)|; s|@VERSION@|$(VERSION)|' \
		mk/libkbloom.pc.in > $(DESTDIR)$(PKGCONFIGDIR)/libkbloom.pc
	install -D -m 0755 $(B)/kbloomctl $(DESTDIR)$(SBINDIR)/kbloomctl
	install -D -m 0644 $(MAN8) $(DESTDIR)$(MANDIR)/man8/kbloomctl.8
	install -D -m 0644 $(B)/kbloomctl.bash $(DESTDIR)$(BASHCOMPDIR)/kbloomctl
	$(if $(DESTDIR),,ldconfig)

install-module: $(B)/kbloom.ko
	install -D -m 0644 $(B)/kbloom.ko $(DESTDIR)$(MODDIR)/kbloom.ko
	$(if $(DESTDIR),,depmod -a $(KVER))

# Every file of both installs, then the directories that only kbloom
# filled; MODDIR only when a module is there (no kernel tree asked).
uninstall:
	rm -f $(addprefix $(DESTDIR)$(LIBDIR)/,$(INST_SO))
	rm -f $(DESTDIR)$(PKGCONFIGDIR)/libkbloom.pc
	rm -f $(addprefix $(DESTDIR)$(INCLUDEDIR)/,$(INST_HDRS))
	rm -rf $(DESTDIR)$(INCLUDEDIR)/kbloom
	rm -f $(DESTDIR)$(SBINDIR)/kbloomctl
	rm -f $(DESTDIR)$(MANDIR)/man8/kbloomctl.8
	rm -f $(DESTDIR)$(BASHCOMPDIR)/kbloomctl
	$(if $(wildcard $(DESTDIR)/lib/modules/*/updates/kbloom.ko), \
		rm -f $(wildcard $(DESTDIR)/lib/modules/*/updates/kbloom.ko))
	$(if $(DESTDIR),,ldconfig)

# DKMS: install-dkms-src puts the module's sources (and the build glue
# that makes its BTF) into /usr/src/kbloom-VERSION with a dkms.conf;
# dkms adds, builds and installs them for KVER (the running kernel's
# release, or KDIR's).  dkms-remove undoes it.
DKMS_SRC = $(DESTDIR)/usr/src/kbloom-$(VERSION)
DKMS_KVER = $(if $(filter command line environment,$(origin KDIR)),$(KVER),$(shell uname -r))

install-dkms-src:
	install -d $(DKMS_SRC)/kmod $(DKMS_SRC)/uapi $(DKMS_SRC)/mk
	install -m 0644 Makefile Kbuild VERSION $(DKMS_SRC)/
	install -m 0644 kmod/*.c kmod/*.h $(DKMS_SRC)/kmod/
	install -m 0644 uapi/*.h $(DKMS_SRC)/uapi/
	install -m 0755 mk/kver.sh mk/btf.sh mk/guest-kernel.sh $(DKMS_SRC)/mk/
	sed 's|#MODULE_VERSION#|$(VERSION)|' mk/dkms.conf.in > $(DKMS_SRC)/dkms.conf

dkms: install-dkms-src
	@command -v dkms >/dev/null || { echo "dkms: not installed (apt-get install dkms)" >&2; exit 1; }
	dkms add kbloom/$(VERSION)
	dkms build kbloom/$(VERSION) -k $(DKMS_KVER)
	dkms install kbloom/$(VERSION) -k $(DKMS_KVER)

dkms-remove:
	dkms remove kbloom/$(VERSION) --all
	rm -rf $(DKMS_SRC)

# Debian packages (kbloom-dkms, libkbloom1, libkbloom-dev, kbloomctl) with
# Debian's tools, from a copy of the tree in build/deb (dpkg-buildpackage
# writes beside the source); then lintian's view of them.
DEB_DIR := $(B)/deb

# debian/libkbloom1.symbols lists every exported function with the release
# that added it: make deb refuses a library whose exports differ
# (mk/debsymbols.sh check here, dpkg-gensymbols -c4 in dh_makeshlibs);
# make deb-symbols writes it after an API change (new functions get
# VERSION).
deb-symbols: $(B)/libkbloom.map
	mk/debsymbols.sh write $< $(VERSION) debian/libkbloom1.symbols

deb: $(B)/libkbloom.map
	@command -v dpkg-buildpackage >/dev/null && command -v dh_dkms >/dev/null || \
		{ echo "deb: needs debhelper and dh-dkms (apt-get install debhelper dh-dkms)" >&2; exit 1; }
	mk/debsymbols.sh check $(B)/libkbloom.map debian/libkbloom1.symbols
	rm -rf $(DEB_DIR)
	mkdir -p $(DEB_DIR)/kbloom-$(VERSION)
	rsync -a --exclude=/build --exclude=/.git ./ $(DEB_DIR)/kbloom-$(VERSION)/
	cd $(DEB_DIR)/kbloom-$(VERSION) && dpkg-buildpackage -us -uc -b
	$(if $(shell command -v lintian),lintian $(DEB_DIR)/*.changes)

# The bash completion: kbloomctl prints it from its own command tables.
$(B)/kbloomctl.bash: $(B)/kbloomctl
	$(say) GEN $@
	$(Q)$(B)/kbloomctl completion bash > $@.tmp
	$(Q)mv $@.tmp $@

# The public headers go to $(PREFIX)/include, the contract (uapi/) to
# $(PREFIX)/include/kbloom/uapi.  The public headers spell it
# "kbloom/uapi/x.h", a path relative to themselves: installed it is the
# directory beside them, in the tree the link userspace/include/kbloom/uapi
# -> uapi/.  So -I$(PREFIX)/include is all a program needs, and each header
# compiles alone (tests/core/install_test.c checks that).
install-headers:
	install -d $(DESTDIR)$(INCLUDEDIR)/kbloom/uapi
	install -m 0644 $(PUB_HDRS) $(DESTDIR)$(INCLUDEDIR)/
	install -m 0644 uapi/*.h $(DESTDIR)$(INCLUDEDIR)/kbloom/uapi/

clean:
	$(say) CLEAN build
	$(Q)[ ! -d $(B) ] || find $(B) -mindepth 1 -maxdepth 1 ! -name cache -exec rm -rf {} +

-include $(shell find $(B) -path $(CACHE) -prune -o -name '*.d' -type f -print 2>/dev/null)
