# scalebench: builds every tests/<t>.c twice (processes, threads), the tools, the selftests.
#
#   make              testcases and tools into build/
#   make check        build, then run the selftests with prove
#   make plot         draw the plots of every run under results/
#   make deps         install the dependencies (root), or say what to install
#   make check-vm     the VM selftest (boots a kernel in QEMU; slow under TCG)
#   make test-kernel  install a small Debian kernel for it (root)
#   make clean
#   make install      prefix (or PREFIX), DESTDIR, bindir, libexecdir, ... (docs/INSTALL.md)
#   make uninstall    the same variables: removes what make install put there
#   make install-lkp  DESTDIR=DIR: lkp-tests' will-it-scale directory (docs/LKP.md)
#   make dist-bin     a prebuilt tarball for a LAVA board without a compiler (docs/KERNELCI.md)
#   make OS=generic   the POSIX-only OS layer, into build-generic/ (docs/PORTING.md)
#
# SAN=address,undefined builds everything with sanitizers into build-san/.

# ---- OS layer (ecosystem): OS=generic builds runner/os_generic.c (POSIX only) into build-generic/ ----
# A make run given BUILD=build-generic alone (runtest.sh's are) keeps that build generic.
ifeq ($(origin OS)$(notdir $(BUILD)),undefinedbuild-generic)
OS := generic
endif
# (read once, from /proc where it is: runtest.sh runs make before every sweep)
ifeq ($(origin OS),undefined)
OS := $(if $(wildcard /proc/sys/kernel/ostype),$(subst L,l,$(strip $(file </proc/sys/kernel/ostype))),$(shell uname -s | tr A-Z a-z))
endif
ifeq ($(OS),generic)
BUILD ?= build-generic
endif
# ---- end OS layer ----

SAN ?=
ifeq ($(SAN),)
BUILD ?= build
else
BUILD ?= build-san
endif
CC ?= cc
# (-O1 under the sanitizers: the level they are made for, and 30% less compile
# CPU than -O2 for make check's second build; the selftests' runs are timed, not
# counted, so a slower binary costs them nothing)
CFLAGS ?= $(if $(SAN),-O1,-O2) -g
PYTHON ?= python3

PKG_CONFIG ?= pkg-config
# pkg-config's answers are kept in $(BUILD)/probes.mk once hwloc is found, for
# as long as PKG_CONFIG and PKG_CONFIG_PATH stay the same: runtest.sh runs make
# before every sweep, and four probes were eight processes each time. Without
# hwloc make asks again each time (so `make deps`, then `make`, just works).
PROBES_KEY := $(PKG_CONFIG)|$(PKG_CONFIG_PATH)
SB_HASH := \#
define SB_NL


endef
-include $(BUILD)/probes.mk
ifneq ($(PROBES_FOR)/$(HWLOC_OK),$(PROBES_KEY)/yes)
HWLOC_OK := $(shell $(PKG_CONFIG) --exists hwloc 2>/dev/null && echo yes)
HWLOC_CFLAGS := $(shell $(PKG_CONFIG) --cflags hwloc 2>/dev/null)
HWLOC_LIBS := $(shell $(PKG_CONFIG) --libs hwloc 2>/dev/null)
SQLITE_LIBS := $(shell $(PKG_CONFIG) --libs sqlite3 2>/dev/null || echo -lsqlite3)
ifeq ($(HWLOC_OK)$(wildcard $(BUILD)/.),yes$(BUILD)/.)
# (one write: a make reading it meanwhile sees all of it or none)
$(file >$(BUILD)/probes.mk,$(SB_HASH) pkg-config's answers for PKG_CONFIG|PKG_CONFIG_PATH = PROBES_FOR, kept by the Makefile$(SB_NL)HWLOC_OK := $(HWLOC_OK)$(SB_NL)HWLOC_CFLAGS := $(HWLOC_CFLAGS)$(SB_NL)HWLOC_LIBS := $(HWLOC_LIBS)$(SB_NL)SQLITE_LIBS := $(SQLITE_LIBS)$(SB_NL)PROBES_FOR := $(PROBES_KEY))
endif
endif

# Testcases and fixtures see runner/include (testcase.h) only; the harness also its own headers.
SB_CFLAGS := -std=gnu11 -Wall -Wextra -pthread -Irunner/include
# format/: the file formats' tables (header only), included as "format/x.h" by runner/, machine/ and analysis/
HARNESS_CFLAGS := -Irunner -Icli -I. $(HWLOC_CFLAGS)
# -z now: symbols are bound once in the runner, not again in each of 1,024 forked tasks
# (lazy binding was ~6% of a processes start here: docs/RUNTEST.md "Spawn and teardown").
SB_LDFLAGS := -pthread -Wl,-z,now
ifneq ($(SAN),)
SB_CFLAGS += -fsanitize=$(SAN) -fno-omit-frame-pointer
SB_LDFLAGS += -fsanitize=$(SAN)
endif
SB_LIBS := $(HWLOC_LIBS) -lm

# Testcases that only exist on Linux are listed here and nowhere else.
LINUX_ONLY := eventfd1 fallocate1 fallocate2 futex1 futex2 futex3 futex4 read3 read4 \
	tlb_flush1 tlb_flush2 tlb_flush3
TESTS := $(patsubst tests/%.c,%,$(wildcard tests/*.c))
ifneq ($(OS),linux)
TESTS := $(filter-out $(LINUX_ONLY),$(TESTS))
endif
FIXTURES := $(patsubst selftest/fixtures/%.c,%,$(wildcard selftest/fixtures/*.c))

# runner/*.c is the harness library, what a testcase links (and nothing else);
# mode_<m>.c picks processes or threads at link time.
LIB_SRC := $(filter-out runner/mode_% runner/os_%,$(wildcard runner/*.c)) runner/os_$(OS).c
# cli/: THE option engine of every tool (the runner's, machine/'s and analysis/'s): one object,
# built with no folder's headers, in both libraries.
CLI_OBJ := $(BUILD)/obj/cli/cli.o
LIB_OBJ := $(patsubst runner/%.c,$(BUILD)/obj/runner/%.o,$(LIB_SRC)) $(CLI_OBJ)
LIB := $(BUILD)/libscalebench.a
# sweep/ and vm/: the C helpers of the shell beside them (runtest.sh's, vm/boot.sh's); no testcase
# links them. sweep/cmd_<x>.c and vm/cmd_<x>.c are the mains of tools sb-<x>; the other sweep/*.c
# (pairs.c, sweepargs_table.c) are libsbsweep.a, linked before the harness library they call.
SWEEP_SRC := $(filter-out sweep/cmd_%,$(wildcard sweep/*.c))
SWEEP_LIB := $(BUILD)/libsbsweep.a
SWEEP_TOOLS := $(patsubst sweep/cmd_%.c,$(BUILD)/bin/sb-%,$(wildcard sweep/cmd_*.c))
VM_TOOLS := $(patsubst vm/cmd_%.c,$(BUILD)/bin/sb-%,$(wildcard vm/cmd_*.c))
SWEEP_HEADERS := $(wildcard sweep/*.h)
TOOLS := $(SWEEP_TOOLS) $(VM_TOOLS)
BINS := $(foreach t,$(TESTS),$(BUILD)/bin/$(t)_processes $(BUILD)/bin/$(t)_threads)
FIXTURE_BINS := $(foreach t,$(FIXTURES),$(BUILD)/selftest/$(t)_processes $(BUILD)/selftest/$(t)_threads)
# selftest/unit/<x>.c: a harness module driven with fixed inputs (no clock), built as unit_<x>;
# those named in ANALYSIS_UNITS drive an analysis/ module instead (linked with libsbanalysis.a)
ANALYSIS_UNITS := verdict
UNIT_BINS := $(patsubst selftest/unit/%.c,$(BUILD)/selftest/unit_%,\
	$(filter-out $(ANALYSIS_UNITS:%=selftest/unit/%.c),$(wildcard selftest/unit/*.c)))
HEADERS := $(wildcard runner/*.h runner/include/*.h tests/*.h cli/*.h format/*.h)
# machine/: the machine's administration (system check, --tune, the lock's commands), no testcase
# links it: machine/cmd_<x>.c is the main of tool sb-<x>, the other machine/*.c are linked into
# each of those, with the harness library for util, os and lock.
MACHINE_SRC := $(filter-out machine/cmd_%,$(wildcard machine/*.c))
MACHINE_OBJ := $(patsubst machine/%.c,$(BUILD)/obj/machine/%.o,$(MACHINE_SRC))
MACHINE_TOOLS := $(patsubst machine/cmd_%.c,$(BUILD)/bin/sb-%,$(wildcard machine/cmd_*.c))
MACHINE_HEADERS := $(wildcard machine/*.h)
# the reference loop (machine/reference.c) summarises and prints with analysis/'s one statistics
# and one rate formatter: their objects are linked into machine/'s tools
MACHINE_SHARED := $(BUILD)/obj/analysis/stat/stats.o $(BUILD)/obj/analysis/stat/tquantile.o $(BUILD)/obj/analysis/fmt/rate.o

# ---- analysis/: the statistics and the results tools, built without hwloc ----
# analysis/*/*.c is libsbanalysis.a (io/, stat/, curve/, compare/ ...: docs/ARCHITECTURE.md);
# analysis/cmd_<x>.c is the main of
# tool sb-<x> (a new tool is one new file). Nothing here sees runner/.
ANALYSIS_SRC := $(filter-out analysis/cmd_%,$(wildcard analysis/*.c analysis/*/*.c))
ANALYSIS_OBJ := $(patsubst analysis/%.c,$(BUILD)/obj/analysis/%.o,$(ANALYSIS_SRC)) $(CLI_OBJ)
ANALYSIS_LIB := $(BUILD)/libsbanalysis.a
ANALYSIS_TOOLS := $(patsubst analysis/cmd_%.c,$(BUILD)/bin/sb-%,$(wildcard analysis/cmd_*.c))
ANALYSIS_HEADERS := $(wildcard analysis/*.h analysis/*/*.h cli/*.h format/*.h)
# Includes name their folder ("stat/stats.h", "rundir/rundir.h"; a header of the same folder by its bare name): the include path is analysis/ itself.
ANALYSIS_CFLAGS := -I. -Ianalysis -Icli
# SQLite (the history's index, analysis/history/) is linked into the tools that use it only.
SQLITE_TOOLS := $(BUILD)/bin/sb-history $(BUILD)/bin/sb-bisect $(BUILD)/bin/sb-compare $(BUILD)/bin/sb-profile

NEEDS_HWLOC := $(filter-out clean deps plot help analysis uninstall $(ANALYSIS_TOOLS),$(or $(MAKECMDGOALS),all))
ifneq ($(NEEDS_HWLOC),)
ifneq ($(HWLOC_OK),yes)
$(error hwloc not found by $(PKG_CONFIG): install libhwloc-dev and pkg-config (Debian/Ubuntu), hwloc-devel (Fedora), hwloc (FreeBSD), or run 'make deps')
endif
endif

.PHONY: all check check-ci plot deps clean help fixtures analysis
.SECONDARY:
.DELETE_ON_ERROR:

all: $(BINS) $(TOOLS) $(MACHINE_TOOLS) $(ANALYSIS_TOOLS)

# make analysis: the analysis tools alone (no hwloc needed)
analysis: $(ANALYSIS_TOOLS)

fixtures: $(FIXTURE_BINS) $(UNIT_BINS)

$(BUILD)/obj/runner/%.o: runner/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SB_CFLAGS) $(HARNESS_CFLAGS) -c -o $@ $<

$(BUILD)/obj/sweep/%.o: sweep/%.c $(HEADERS) $(SWEEP_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SB_CFLAGS) $(HARNESS_CFLAGS) -Isweep -c -o $@ $<

$(BUILD)/obj/vm/%.o: vm/%.c $(HEADERS) $(SWEEP_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SB_CFLAGS) $(HARNESS_CFLAGS) -Isweep -c -o $@ $<

$(BUILD)/obj/machine/%.o: machine/%.c $(HEADERS) $(MACHINE_HEADERS) analysis/stat/stats.h analysis/fmt/rate.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SB_CFLAGS) $(HARNESS_CFLAGS) -Imachine -Ianalysis -c -o $@ $<

$(CLI_OBJ): cli/cli.c cli/cli.h
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SB_CFLAGS) -c -o $@ $<

$(BUILD)/obj/tests/%.o: tests/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SB_CFLAGS) -c -o $@ $<

$(BUILD)/obj/selftest/%.o: selftest/fixtures/%.c $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SB_CFLAGS) -c -o $@ $<

$(LIB): $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

$(SWEEP_LIB): $(patsubst %.c,$(BUILD)/obj/%.o,$(SWEEP_SRC))
	@rm -f $@
	$(AR) rcs $@ $^

$(BUILD)/bin/%_processes: $(BUILD)/obj/tests/%.o $(BUILD)/obj/runner/mode_processes.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(SB_LDFLAGS) -o $@ $^ $(SB_LIBS)

$(BUILD)/bin/%_threads: $(BUILD)/obj/tests/%.o $(BUILD)/obj/runner/mode_threads.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(SB_LDFLAGS) -o $@ $^ $(SB_LIBS)

$(BUILD)/selftest/%_processes: $(BUILD)/obj/selftest/%.o $(BUILD)/obj/runner/mode_processes.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(SB_LDFLAGS) -o $@ $^ $(SB_LIBS)

$(BUILD)/selftest/%_threads: $(BUILD)/obj/selftest/%.o $(BUILD)/obj/runner/mode_threads.o $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(SB_LDFLAGS) -o $@ $^ $(SB_LIBS)

$(BUILD)/selftest/unit_%: selftest/unit/%.c $(LIB) $(HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SB_CFLAGS) $(HARNESS_CFLAGS) $(LDFLAGS) $(SB_LDFLAGS) -o $@ $< $(LIB) $(SB_LIBS)

$(BUILD)/obj/analysis/%.o: analysis/%.c $(ANALYSIS_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SB_CFLAGS) $(ANALYSIS_CFLAGS) -c -o $@ $<

$(ANALYSIS_LIB): $(ANALYSIS_OBJ)
	@rm -f $@
	$(AR) rcs $@ $^

# The history simulator (docs/HISTORY.md "The method"): history_gen writes synthetic run
# directories (summary.csv by the sb-summary beside it), history_sim runs the change-point
# method in one process on the same numbers.
HISTORY_SIM_BINS := $(BUILD)/selftest/history_gen $(BUILD)/selftest/history_sim
fixtures: $(HISTORY_SIM_BINS) $(BUILD)/bin/sb-summary
HISTORY_SIM_SRC := selftest/bench/history_model.c selftest/bench/history_edivisive.c
$(HISTORY_SIM_BINS): $(BUILD)/selftest/%: selftest/bench/%.c $(HISTORY_SIM_SRC) \
		$(wildcard selftest/bench/history_*.h) $(ANALYSIS_LIB) $(ANALYSIS_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SB_CFLAGS) $(ANALYSIS_CFLAGS) -Iselftest/bench $(LDFLAGS) $(SB_LDFLAGS) -o $@ $< \
		$(HISTORY_SIM_SRC) $(ANALYSIS_LIB) -lm

ANALYSIS_UNIT_BINS := $(ANALYSIS_UNITS:%=$(BUILD)/selftest/unit_%)
fixtures: $(ANALYSIS_UNIT_BINS)
$(ANALYSIS_UNIT_BINS): $(BUILD)/selftest/unit_%: selftest/unit/%.c $(ANALYSIS_LIB) $(ANALYSIS_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(SB_CFLAGS) $(ANALYSIS_CFLAGS) $(LDFLAGS) $(SB_LDFLAGS) -o $@ $< $(ANALYSIS_LIB) -lm

# A static pattern rule, as every tool's below.
$(ANALYSIS_TOOLS): $(BUILD)/bin/sb-%: $(BUILD)/obj/analysis/cmd_%.o $(ANALYSIS_LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(SB_LDFLAGS) -o $@ $^ -lm $(if $(filter $@,$(SQLITE_TOOLS)),$(SQLITE_LIBS)) $(LDLIBS)

# A static pattern rule too: machine/'s tools take machine/'s objects and the harness library.
$(MACHINE_TOOLS): $(BUILD)/bin/sb-%: $(BUILD)/obj/machine/cmd_%.o $(MACHINE_OBJ) $(MACHINE_SHARED) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(SB_LDFLAGS) -o $@ $^ $(SB_LIBS)

# sweep/'s and vm/'s tools: their main, libsbsweep.a, then the harness library.
$(SWEEP_TOOLS): $(BUILD)/bin/sb-%: $(BUILD)/obj/sweep/cmd_%.o $(SWEEP_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(SB_LDFLAGS) -o $@ $^ $(SB_LIBS)

$(VM_TOOLS): $(BUILD)/bin/sb-%: $(BUILD)/obj/vm/cmd_%.o $(SWEEP_LIB) $(LIB)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $(SB_LDFLAGS) -o $@ $^ $(SB_LIBS)

# sb-options prints the testcase binaries' option table: it links their
# option parser, which reaches the testcase API and so a mode (either will do).
# sb-sweepargs (runtest.sh's own option table) asks that table which runner options a sweep hands on.
$(BUILD)/bin/sb-options $(BUILD)/bin/sb-sweepargs: $(BUILD)/obj/runner/mode_processes.o

# ---- version (ecosystem): VERSION and the git revision, baked in at build time ----
# $(BUILD)/gen/sb_version.h is remade when VERSION or git's HEAD, branch or index
# changes (so make -q stays true after a build); only the objects that print
# --version are recompiled then.
# (one git for the three: its git dir, the common one, HEAD's branch; "HEAD" when detached)
SB_GIT := $(shell git rev-parse --git-dir --git-common-dir --symbolic-full-name HEAD 2>/dev/null)
SB_GIT_DIR := $(word 1,$(SB_GIT))
SB_GIT_COMMON := $(word 2,$(SB_GIT))
SB_GIT_REF := $(filter refs/%,$(word 3,$(SB_GIT)))
VERSION_DEPS := VERSION build-aux/version.sh $(wildcard $(SB_GIT_DIR)/HEAD $(SB_GIT_DIR)/index \
	$(SB_GIT_COMMON)/packed-refs $(if $(SB_GIT_REF),$(SB_GIT_COMMON)/$(SB_GIT_REF)))
VERSION_H := $(BUILD)/gen/sb_version.h
VERSION_USERS := $(BUILD)/obj/runner/options.o \
	$(patsubst %.c,$(BUILD)/obj/%.o,$(wildcard sweep/cmd_*.c vm/cmd_*.c machine/cmd_*.c analysis/cmd_*.c))
$(VERSION_USERS): $(VERSION_H)
$(VERSION_USERS): SB_CFLAGS += -I$(BUILD)/gen
$(VERSION_H): $(VERSION_DEPS)
	@mkdir -p $(@D)
	@sh build-aux/version.sh . >$@.tmp && mv -f $@.tmp $@
# Distribution flags: CPPFLAGS into every compile, LDLIBS into every link.
SB_CFLAGS += $(CPPFLAGS)
SB_LIBS += $(LDLIBS)
# ---- end version ----

# ---- lkp-tests drop-in (ecosystem): runtest.py beside the binaries, as lkp runs it (docs/LKP.md) ----
# runalltests too (will-it-scale's: runtest.py <test> for each testcase, into <test>.csv).
all: $(BUILD)/bin/runtest.py $(BUILD)/bin/runalltests
$(BUILD)/bin/runtest.py $(BUILD)/bin/runalltests: $(BUILD)/bin/%: %
	@mkdir -p $(@D)
	cp $< $@.tmp && chmod 755 $@.tmp && mv -f $@.tmp $@

# A will-it-scale testcase dropped into tests/ unchanged includes no header of ours (the rule
# tests/gen_tests_md.sh uses too): its code, not ours, so -Wextra's unused-parameter and
# sign-compare warnings are not shown for it.
UPSTREAM_TESTS := $(filter tests/%,$(shell grep -L '^[[:space:]]*\#[[:space:]]*include[[:space:]]*"' /dev/null $(wildcard tests/*.c)))
$(patsubst tests/%.c,$(BUILD)/obj/tests/%.o,$(UPSTREAM_TESTS)): SB_CFLAGS += -Wno-unused-parameter -Wno-sign-compare

# make install-lkp DESTDIR=DIR: DIR laid out as lkp-tests' will-it-scale directory
# (binaries, runtest.py and runalltests at its top; docs/LKP.md has lkp's package function).
.PHONY: install-lkp
install-lkp: all
	sh build-aux/install-lkp.sh '$(BUILD)' '$(DESTDIR)'
# ---- end lkp-tests drop-in ----

# ---- install (ecosystem): make install [DESTDIR=...] [prefix=/usr/local] (docs/INSTALL.md) ----
# Testcase binaries, runtest.py and the internal sb-options in $(LIBEXECDIR)/scalebench, the user's
# sb-* tools and the drivers (scalebench-runtest, scalebench-compare) in $(BINDIR), plot scripts
# in $(DATADIR)/scalebench, testcase.h in $(INCLUDEDIR)/scalebench, the harness (one library a
# mode) in $(LIBDIR) with its pkg-config files. GNU's lower-case names and the upper-case ones
# both work: an upper-case one given wins, else it follows the lower-case one.
prefix ?= /usr/local
PREFIX ?= $(prefix)
exec_prefix ?= $(PREFIX)
bindir ?= $(exec_prefix)/bin
libexecdir ?= $(exec_prefix)/libexec
libdir ?= $(exec_prefix)/lib
datarootdir ?= $(PREFIX)/share
datadir ?= $(datarootdir)
includedir ?= $(PREFIX)/include
BINDIR ?= $(bindir)
LIBEXECDIR ?= $(libexecdir)
LIBDIR ?= $(libdir)
DATADIR ?= $(datadir)
mandir ?= $(DATADIR)/man
MANDIR ?= $(mandir)
INCLUDEDIR ?= $(includedir)
INSTALL_ENV = DESTDIR='$(DESTDIR)' PREFIX='$(PREFIX)' BINDIR='$(BINDIR)' LIBEXECDIR='$(LIBEXECDIR)' \
	DATADIR='$(DATADIR)' MANDIR='$(MANDIR)' INCLUDEDIR='$(INCLUDEDIR)' LIBDIR='$(LIBDIR)' \
	HWLOC_LIBS='$(HWLOC_LIBS)'
# The harness with one mode each: a testcase links one (pkg-config scalebench-processes or -threads).
MODE_LIBS := $(BUILD)/libscalebench-processes.a $(BUILD)/libscalebench-threads.a
$(BUILD)/libscalebench-%.a: $(LIB_OBJ) $(BUILD)/obj/runner/mode_%.o
	@rm -f $@
	$(AR) rcs $@ $^
.PHONY: install uninstall
install: all $(MODE_LIBS)
	$(INSTALL_ENV) sh build-aux/install.sh '$(BUILD)'
# install-lkp lays its tree out with install.sh, which installs the mode libraries too
install-lkp: $(MODE_LIBS)
uninstall:
	$(INSTALL_ENV) sh build-aux/install.sh --uninstall
# make dist-bin: $(BUILD)/scalebench-bin-<arch>.tar.gz, the installed tree (prefix /scalebench: the
# tools, runtest, the testcases; its copies find each other by relative paths) for lava/run.sh's
# PREBUILT. CC=aarch64-linux-gnu-gcc and an arm64 hwloc's PKG_CONFIG_PATH make an arm64 one.
DIST_ARCH ?= $(shell $(CC) -dumpmachine 2>/dev/null | cut -d- -f1)
.PHONY: dist-bin
dist-bin: all $(MODE_LIBS)
	@rm -rf '$(BUILD)/dist-bin' && mkdir -p '$(BUILD)/dist-bin'
	$(INSTALL_ENV) DESTDIR='$(abspath $(BUILD))/dist-bin' PREFIX=/scalebench BINDIR=/scalebench/bin \
		LIBEXECDIR=/scalebench/libexec DATADIR=/scalebench/share MANDIR=/scalebench/share/man \
		INCLUDEDIR=/scalebench/include LIBDIR=/scalebench/lib sh build-aux/install.sh '$(BUILD)'
	tar -czf '$(BUILD)/scalebench-bin-$(DIST_ARCH).tar.gz.tmp' -C '$(BUILD)/dist-bin' scalebench
	mv -f '$(BUILD)/scalebench-bin-$(DIST_ARCH).tar.gz.tmp' '$(BUILD)/scalebench-bin-$(DIST_ARCH).tar.gz'
	@rm -rf '$(BUILD)/dist-bin'
	@echo '$(BUILD)/scalebench-bin-$(DIST_ARCH).tar.gz'
# ---- end install ----

# The selftests find the build through SB_BUILD; T=selftest/x.t runs one.
# Under sanitizers a crash must still be a plain signal death (the runner
# reports it), and any undefined behaviour must fail the test that hit it.
T ?= selftest
# Three test files at a time on any machine: each works in its own
# directories, and a file's time is mostly its sweeps' start and its waits (on
# 2 CPUs, -j2 kept them 80% busy, -j3 93%; PROVE_FLAGS= runs them one by one).
# SOLO_TESTS run alone, after the others: they oversubscribe the machine on
# purpose (hundreds of tasks would starve a neighbour's 100 ms samples).
# --timer: each file's time in the log (CI's figures in docs/SELFTEST.md come from it).
PROVE_FLAGS ?= -j3 --timer
SOLO_TESTS := selftest/runner_start.t selftest/runner_run.t
# A file whose subject is shell, Python or docs (the C it happens to run is
# tested under the sanitizers by other files) carries a line '# sb-san: skip:
# WHY'; make check SAN=... leaves it out. A new file runs in both passes.
SAN_SKIP := $(if $(SAN),$(shell grep -l '^\# sb-san: skip' selftest/*.t))
# The longest files start first (prove -j runs them in the order given): a long
# file started last would run alone at the end with a CPU idle (the longest
# ones by wall time in CI, docs/SELFTEST.md; a file not named here runs after them).
LONG_TESTS := $(patsubst %,selftest/%.t,fault_matrix lkp_contract runtest_rounds profile_runtest \
	compare_runs bisect_repo runtest_signals install runtest_faults titles vm_rounds runtest_machine \
	wis_dropin testcases)
CHECK_TESTS := $(filter-out $(SOLO_TESTS) $(SAN_SKIP),$(LONG_TESTS) $(filter-out $(LONG_TESTS),$(wildcard selftest/*.t)))
# LeakSanitizer's scan at each exit cost 35-40 ms a sanitized exec, a third of
# the pass's CPU: off here, on in selftest/san_leaks.t over each tool's paths.
SAN_ENV := $(if $(SAN),ASAN_OPTIONS=handle_segv=0:detect_leaks=0:$(ASAN_OPTIONS) UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:$(UBSAN_OPTIONS))
CHECK_ENV = SB_BUILD=$(BUILD) SB_SAN=$(SAN) SB_OS=$(OS) $(SAN_ENV)
# The build first, on every CPU unless make was given -j (a plain `make check`
# built 300 objects one at a time); then selftest/shortruns.sh: every
# testcase's short runs, two at a time, once for testcases.t and titles.t
# (each would remake them if missing).
CHECK_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check:
	@$(MAKE) --no-print-directory $(if $(findstring -j,$(MAKEFLAGS)),,-j$(CHECK_JOBS)) all fixtures
ifeq ($(T),selftest)
	$(CHECK_ENV) selftest/shortruns.sh $(BUILD) >/dev/null
	$(CHECK_ENV) prove $(PROVE_FLAGS) $(CHECK_TESTS)
	$(CHECK_ENV) prove --timer $(filter-out $(SAN_SKIP),$(SOLO_TESTS))
else
	$(CHECK_ENV) prove $(PROVE_FLAGS) $(T)
endif

# make check-ci: what CI runs (README): both builds, and each selftest once. A
# file runs on the sanitizer build (CI_SAN) unless its header says '# sb-san:
# skip', then on the normal one (selftest/ci_exec.sh chooses, for prove), in one
# pool of three at a time; then the solo files, sanitized. The two passes of
# `make check` and `make check SAN=...` ran the files with C twice, once unchecked.
CI_SAN ?= address,undefined
CI_SAN_BUILD ?= build-san
CI_TESTS := $(filter-out $(SOLO_TESTS),$(LONG_TESTS) $(filter-out $(LONG_TESTS),$(wildcard selftest/*.t)))
CI_ENV = SB_CI_BUILD=$(BUILD) SB_CI_SAN_BUILD=$(CI_SAN_BUILD) SB_CI_SAN=$(CI_SAN) SB_OS=$(OS) \
	ASAN_OPTIONS=handle_segv=0:detect_leaks=0:$(ASAN_OPTIONS) UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:$(UBSAN_OPTIONS)
check-ci:
	@$(MAKE) --no-print-directory $(if $(findstring -j,$(MAKEFLAGS)),,-j$(CHECK_JOBS)) all fixtures
	@$(MAKE) --no-print-directory $(if $(findstring -j,$(MAKEFLAGS)),,-j$(CHECK_JOBS)) SAN=$(CI_SAN) BUILD=$(CI_SAN_BUILD) all fixtures
	$(CI_ENV) SB_BUILD=$(CI_SAN_BUILD) SB_SAN=$(CI_SAN) selftest/shortruns.sh $(CI_SAN_BUILD) >/dev/null
	$(CI_ENV) prove $(PROVE_FLAGS) --exec selftest/ci_exec.sh $(CI_TESTS)
	$(CI_ENV) SB_BUILD=$(CI_SAN_BUILD) SB_SAN=$(CI_SAN) prove --timer $(SOLO_TESTS)

# RESULTS reaches plot.py whole through the environment (a path with blanks or a quote is one
# path, never shell syntax); COMPARE is a list of runs, split on blanks.
plot: export SB_PLOT_RESULTS := $(RESULTS)
plot:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "make plot: python3 not found: install python3" >&2; exit 3; }
	$(PYTHON) plot/plot.py $(if $(RESULTS),--results "$$SB_PLOT_RESULTS") $(if $(COMPARE),--compare $(COMPARE))

deps:
	@sh build-aux/deps.sh

# ---- VM runs (vm/, docs/VM.md): the slow selftest and the kernel it boots ----
.PHONY: check-vm test-kernel
check-vm: all
	SB_BUILD=$(BUILD) SB_CHECK_VM=1 prove $(PROVE_FLAGS) selftest/vm_boot.t selftest/bisect_vm.t

test-kernel:
	@sh build-aux/deps.sh test-kernel

# make clean BUILD=dir removes that build only; plain make clean every default one.
clean:
	rm -rf -- $(if $(filter command line environment,$(origin BUILD)),'$(BUILD)',build build-san build-generic)

help:
	@sed -n '3,16p' Makefile
